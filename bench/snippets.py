"""Templates for the written parts of a real-shaped record: prose and code.

The real records' prose is one Markdown paragraph of 100-300 characters per
field; their code fields are short snippets in the record's own language
(example fix ~100-200 characters over 4-6 lines, validation ~80-160, type
guard ~50-120, try/catch ~110-170). Each template below is filled with names
taken from the source window (function, class, package, message), and a record
picks one variant per field by a hash, so the corpus is varied yet reproducible.
Placeholders: {func} {call} {cls} {short} {msg} {lit} (the message as a string
literal of the language) {pkg} {file} {line} {kind}.
"""
from __future__ import annotations

DOCS = [
    "`{func}` raises `{short}` with the message \"{msg}\" when {kind}. The check runs before any work is done, "
    "so nothing is half-applied and the same call fails again until the input changes.",
    "In `{file}` (line {line}), {pkg} guards `{func}` against {kind}: it stops with `{short}` and reports "
    "\"{msg}\". This is a caller mistake, not a transient fault.",
    "The message comes from `{func}` in {pkg}. It is produced when {kind}, and it names the offending value "
    "so that the caller can tell which argument or setting is wrong.",
    "{pkg} reports \"{msg}\" from `{func}` when {kind}. Callers usually see it wrapped by their own code; "
    "the text itself is stable across patch releases and safe to match on.",
]
KINDS = {
    "validation": "an argument fails one of its checks", "parse": "the input cannot be parsed as the expected format",
    "type": "a value has the wrong type", "unsupported": "an option or feature is not supported here",
    "auth": "credentials or permissions are missing", "encoding": "bytes cannot be encoded or decoded",
    "resource": "a file, socket or other resource cannot be used", "configuration": "a setting is missing or invalid",
    "shape": "sizes or dimensions do not agree", "state": "the object is not in a state that allows the call",
    "usage": "the API is called in a way it does not allow",
}
TRIGGERS = [
    "Calling `{call}` with a value that does not pass the check just before line {line}, often read from user "
    "input, a config file or the network.",
    "Passing an argument of the wrong type or range to `{func}`, for example an empty string, a negative size or "
    "a value left over from an earlier call.",
    "Reaching the guarded branch of `{func}` because earlier code left the object in an unexpected state, such as "
    "a closed handle or a half-initialised value.",
]
SITUATIONS = [
    "Upgrading {pkg} while keeping code written for an older API; feeding unchecked data from files or requests "
    "straight into `{func}`.",
    "Writing a thin wrapper around `{func}` without validating its inputs; copying an example written for another "
    "version of {pkg}.",
    "Tests whose fixtures differ from production data; mixing objects built by different versions of {pkg} in one "
    "process.",
]
SOLUTIONS = [
    "Check the value you pass to `{func}` and fix it before the call", "Validate inputs at the boundary, so the "
    "error names the field that caused it", "Read the {pkg} documentation for what `{func}` accepts",
    "Pin or upgrade {pkg} so your code and the library agree on the API", "Catch `{short}` around the call and "
    "report which input caused it", "Add a test that reproduces \"{msg}\" and fix the caller",
]
TIPS = ["Validate data before it reaches {pkg}", "Pin {pkg} and read its changelog", "Log the offending value "
        "with the error", "Cover the failing input in unit tests", "Prefer explicit arguments over defaults",
        "Keep one place that builds these values"]

# Code fields, per language: two variants each.
CODE = {
    "python": {
        "exampleFix": ["# before\nresult = {call}  # {short}: {msg}\n# after\nvalue = normalize(value)\nresult = {call}",
                       "# before\n{call}\n# after\nif value is not None and value != \"\":\n    {call}\nelse:\n    log.warning(\"skipping empty value\")"],
        "validationCode": ["def check(value):\n    if not value:\n        raise {short}({lit})\n    return value",
                           "if not isinstance(value, (str, bytes)) or not value:\n    raise {short}({lit})"],
        "typeGuard": ["def is_valid(value: object) -> bool:\n    return isinstance(value, (str, int)) and bool(value)",
                      "is_ok = lambda v: v is not None and not isinstance(v, bool)"],
        "tryCatchPattern": ["try:\n    {call}\nexcept {short} as exc:\n    log.error(\"{func} failed: %s\", exc)\n    raise",
                            "try:\n    result = {call}\nexcept {short}:\n    result = default_value()"],
    },
    "go": {
        "exampleFix": ["// before\nv, _ := {call}\n// after\nv, err := {call}\nif err != nil {{\n\treturn fmt.Errorf(\"{func}: %w\", err)\n}}",
                       "// before\n{call}\n// after\nif value == \"\" {{\n\tvalue = defaultValue\n}}\n{call}"],
        "validationCode": ["if value == \"\" {{\n\treturn errors.New({lit})\n}}",
                           "if len(value) == 0 || len(value) > maxLen {{\n\treturn fmt.Errorf(\"invalid value %q\", value)\n}}"],
        "typeGuard": ["func isValid(v any) bool {{ s, ok := v.(string); return ok && s != \"\" }}",
                      "_, ok := v.(fmt.Stringer)"],
        "tryCatchPattern": ["if err := {call}; err != nil {{\n\tlog.Printf(\"{func} failed: %v\", err)\n\treturn err\n}}",
                            "res, err := {call}\nif err != nil {{\n\treturn nil, fmt.Errorf(\"calling {func}: %w\", err)\n}}"],
    },
    "rust": {
        "exampleFix": ["// before\nlet v = {call}.unwrap();\n// after\nlet v = {call}.map_err(|e| anyhow::anyhow!(\"{func}: {{e}}\"))?;",
                       "// before\n{call};\n// after\nif !input.is_empty() {{\n    {call};\n}}"],
        "validationCode": ["if input.is_empty() {{\n    return Err({lit}.into());\n}}",
                           "anyhow::ensure!(!input.is_empty(), {lit});"],
        "typeGuard": ["fn is_valid(s: &str) -> bool {{ !s.is_empty() && s.len() < 4096 }}",
                      "matches!(value, Some(v) if !v.is_empty())"],
        "tryCatchPattern": ["match {call} {{\n    Ok(v) => v,\n    Err(e) => {{\n        eprintln!(\"{func} failed: {{e}}\");\n        return Err(e.into());\n    }}\n}}",
                            "let result = std::panic::catch_unwind(|| {call});\nif result.is_err() {{\n    eprintln!(\"{func} panicked\");\n}}"],
    },
    "javascript": {
        "exampleFix": ["// before\n{call};\n// after\nif (value != null) {{\n  {call};\n}}",
                       "// before\nconst out = {call};\n// after\nconst out = value == null ? fallback : {call};"],
        "validationCode": ["if (typeof value !== 'string' || value === '') {{\n  throw new TypeError({lit});\n}}",
                           "if (value == null) throw new {short}({lit});"],
        "typeGuard": ["const isValid = (v) => typeof v === 'string' && v.length > 0;",
                      "function isPlainObject(v) {{ return v !== null && typeof v === 'object'; }}"],
        "tryCatchPattern": ["try {{\n  {call};\n}} catch (err) {{\n  console.error('{func} failed:', err.message);\n  throw err;\n}}",
                            "try {{\n  return {call};\n}} catch (err) {{\n  if (err instanceof {short}) return null;\n  throw err;\n}}"],
    },
    "java": {
        "exampleFix": ["// before\n{call};\n// after\nObjects.requireNonNull(value, \"value\");\n{call};",
                       "// before\nvar out = {call};\n// after\nvar out = value == null ? fallback : {call};"],
        "validationCode": ["if (value == null || value.isEmpty()) {{\n    throw new IllegalArgumentException({lit});\n}}",
                           "Objects.requireNonNull(value, {lit});"],
        "typeGuard": ["static boolean isValid(Object v) {{ return v instanceof String s && !s.isEmpty(); }}",
                      "boolean ok = value instanceof Number n && n.intValue() >= 0;"],
        "tryCatchPattern": ["try {{\n    {call};\n}} catch ({short} e) {{\n    LOG.warning(\"{func} failed: \" + e.getMessage());\n    throw e;\n}}",
                            "try {{\n    return {call};\n}} catch ({short} e) {{\n    return Optional.empty();\n}}"],
    },
    "c": {
        "exampleFix": ["/* before */\n{call};\n/* after */\nif (arg != NULL) {{\n    {call};\n}}",
                       "/* before */\nint rc = {call};\n/* after */\nint rc = {call};\nif (rc != 0) {{\n    return rc;\n}}"],
        "validationCode": ["if (arg == NULL || len == 0) {{\n    fprintf(stderr, \"%s\\n\", {lit});\n    return -1;\n}}",
                           "assert(arg != NULL && \"{short}\");"],
        "typeGuard": ["static int is_valid(const char *s) {{ return s != NULL && s[0] != '\\0'; }}",
                      "#define IS_VALID(p) ((p) != NULL)"],
        "tryCatchPattern": ["int rc = {call};\nif (rc != 0) {{\n    fprintf(stderr, \"{func} failed: %d\\n\", rc);\n    goto cleanup;\n}}",
                            "errno = 0;\nif ({call} < 0) {{\n    perror(\"{func}\");\n    exit(EXIT_FAILURE);\n}}"],
    },
    "cpp": {
        "exampleFix": ["// before\nauto v = {call};\n// after\nif (!input.empty()) {{\n    auto v = {call};\n}}",
                       "// before\n{call};\n// after\nif (index < container.size()) {{\n    {call};\n}}"],
        "validationCode": ["if (input.empty()) {{\n    throw std::invalid_argument({lit});\n}}",
                           "static_assert(sizeof(value) > 0);\nif (!is_valid(value)) return std::nullopt;"],
        "typeGuard": ["template <class T> constexpr bool is_valid_v = std::is_arithmetic_v<T>;",
                      "auto is_valid = [](const std::string& s) {{ return !s.empty(); }};"],
        "tryCatchPattern": ["try {{\n    {call};\n}} catch (const {short}& e) {{\n    std::cerr << \"{func}: \" << e.what() << '\\n';\n    throw;\n}}",
                            "try {{\n    return {call};\n}} catch (const std::exception& e) {{\n    return std::nullopt;\n}}"],
    },
}
