/* 404.html: a link a tool built from an error code as the code is written
 * (`-/go/code/E0308/`, `-/go/code/json.exception.parse_error.101/`) lands here,
 * since the site names each code page by its URL segment (`e0308`,
 * `json-exception-parse-error-101`: errorsite/urls.py url_segment). Open that
 * page instead. A segment that is already its own has no page: the 404 stands. */
(function () {
  "use strict";
  var script = document.currentScript;
  var base = script && script.getAttribute("data-go-code");
  if (!base || window.location.pathname.indexOf(base) !== 0) return;
  var code = window.location.pathname.slice(base.length).replace(/\/+$/, "");
  try { code = decodeURIComponent(code); } catch (error) { return; }
  var segment = code.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, "-").replace(/^-+|-+$/g, "").slice(0, 64);
  if (!segment || segment === code) return;
  window.location.replace(base + encodeURIComponent(segment) + "/" + window.location.search + window.location.hash);
}());
