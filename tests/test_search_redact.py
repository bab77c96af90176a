"""What a paste may not carry out of the browser (static/search-redact.js,
issue 41): home folder names, tokens, a URL's password, e-mail addresses and
IP addresses are replaced before the text goes into an address or a title;
the title holds the paste's message line only. Under Node, in the fast loop."""
from __future__ import annotations

import pytest

from tests.search_node import node_core  # noqa: F401  (a fixture)


def redact(node_core, text: str) -> dict:
    return node_core.evaluate("(text) => ErrorSearchRedact.redact(text)", text)


@pytest.mark.parametrize("text, expected, kind", [
    ('File "/home/alice/app/main.py", line 3', 'File "/home/<user>/app/main.py", line 3', "user"),
    ("at Object.<anonymous> (/Users/daslicht/DEV/app.js:25:5)", "at Object.<anonymous> (/Users/<user>/DEV/app.js:25:5)", "user"),
    ("C:\\Users\\Carol Ann\\proj", "C:\\Users\\<user> Ann\\proj", "user"),
    ("C:/Users/carol/proj/x.py", "C:/Users/<user>/proj/x.py", "user"),
    ("token ghp_abcdefghijklmnopqrstuvwxyz0123456789 expired", "token <token> expired", "token"),
    ("github_pat_11ABCDEFG0123456789_abcdefghijklmnopqrstuvwxyz", "<token>", "token"),
    ("key AKIAIOSFODNN7EXAMPLE denied", "key <token> denied", "token"),
    ("aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY", "aws_secret_access_key = <token>", "token"),
    ("Authorization: Bearer eyJhbGciOiJIUzI1NiJ9.e30.abc", "Authorization: Bearer <token>", "token"),
    ("connecting with password=s3cr3t-pw!", "connecting with password=<token>", "token"),
    ('connect(token="ghp_abcdefghijklmnopqrstuvwxyz0123456789")', 'connect(token="<token>")', "token"),
    ("fatal: https://bob:hunter2@github.com/x/y.git", "fatal: https://bob:<password>@github.com/x/y.git", "password"),
    ("mail bob.smith+ci@example.co.uk failed", "mail <email> failed", "email"),
    ("connect ECONNREFUSED 10.0.0.12:6379", "connect ECONNREFUSED <ip>:6379", "ip"),
    ("listen on [fe80::1ff:fe23:4567:890a]:80", "listen on [<ip>]:80", "ip"),
])
def test_each_kind_is_replaced(node_core, text, expected, kind):
    result = redact(node_core, text)
    assert result["text"] == expected and set(result["found"]) == {kind}


@pytest.mark.parametrize("text", [
    "accepts at most 1 arg(s), received 2",
    "2026-12-04T10:11:12.345Z ERROR worker 3 failed after 12:34:56",
    "npm ERR! peer react@18.2.0 from @types/react-dom@18.0.1",
    "error[E0308]: mismatched types at src/main.rs:4:5",
    "Python 3.11.7 on /usr/lib/python3.11/site-packages and /root/.cache",
    "Tensor of shape [2, 3] and dtype f32: cannot use slice_set",
    "HRESULT 0x80070005 (E_ACCESSDENIED)",
])
def test_ordinary_error_text_is_left_alone(node_core, text):
    assert redact(node_core, text) == {"text": text, "found": {}}


def test_a_value_is_counted_once_however_many_rules_would_take_it(node_core):
    assert redact(node_core, 'token="ghp_abcdefghijklmnopqrstuvwxyz0123456789"')["found"] == {"token": 1}


def test_the_preview_names_what_was_left_out(node_core):
    text = "bob@example.com alice@example.org on 10.0.0.1 in /home/bob/x"
    assert node_core.evaluate("(t) => ErrorSearchRedact.describe(ErrorSearchRedact.redact(t).found)", text) == \
        "2 e-mail addresses, 1 home folder name, 1 IP address"


@pytest.mark.parametrize("paste, line", [
    ('Traceback (most recent call last):\n  File "/home/a/m.py", line 1, in <module>\n    raise ValueError(msg)\n'
     "ValueError: bad value", "ValueError: bad value"),
    ("Error: callback function required\n    at EventEmitter.engine (/x/application.js:294:11)",
     "Error: callback function required"),
    ("$ cargo run\nerror[E0308]: mismatched types\n --> src/main.rs:4:5", "error[E0308]: mismatched types"),
    ("2026-12-04 10:00:01 INFO starting\n2026-12-04 10:00:02 ERROR connection refused", "2026-12-04 10:00:02 ERROR connection refused"),
    ("just some words", "just some words"),
])
def test_the_title_holds_the_message_line(node_core, paste, line):
    assert node_core.evaluate("(t) => ErrorSearchRedact.messageLine(t)", paste) == line
