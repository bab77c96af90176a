"""The search-quality suite's own rules (bench/quality.py): which records
other than a query's own count as right for it."""
from __future__ import annotations

import pytest

from bench.quality import wraps


def record(pattern: str) -> dict:
    return {"record": {"messagePattern": pattern, "errorMessage": pattern}}


BUILDX = record("buildx failed with: {lastStderrLine}")
BUILDKIT = record("process {command} did not complete successfully: exit code: {code}")
GUZZLE = record("cURL error {errno}: {error} (see https://curl.haxx.se/libcurl/c/libcurl-errors.html) for {uri}")
CURL = record("SSL certificate problem: {verify_error}")


@pytest.mark.parametrize("outer, inner, paste", [
    (BUILDX, BUILDKIT, 'Error: buildx failed with: ERROR: failed to solve: process "/bin/sh -c go mod download" '
                       'did not complete successfully: exit code: 1'),
    (GUZZLE, CURL, "[GuzzleHttp\\Exception\\RequestException]\n  cURL error 60: SSL certificate problem: unable to "
                   "get local issuer certificate (see https://curl.haxx.se/lib"),   # cut by the author
    (GUZZLE, CURL, "cURL error 60: SSL certificate problem: unable to get local issuer certificate"),  # older: no "(see"
])
def test_a_message_held_by_anothers_placeholder_is_wrapped(outer, inner, paste):
    assert wraps(outer, inner, paste)
    assert not wraps(inner, outer, paste)


@pytest.mark.parametrize("outer, inner, paste", [
    # Composer's own wording around curl's: not Guzzle's, whose errno is one word before a colon.
    (GUZZLE, CURL, "curl error 60 while downloading https://repo.packagist.org/packages.json: SSL certificate "
                   "problem: unable to get local issuer certificate"),
    # Another message later in the text a placeholder holds, after a sentence: not what it wraps.
    (record("Cannot write DateTime with Kind={kind} to PostgreSQL type '{type}', only UTC is supported. {note}"),
     record("Request failed with status code {status}"),
     "Cannot write DateTime with Kind=Unspecified to PostgreSQL type 'timestamp with time zone', only UTC is "
     "supported. Note that it's not possible to mix DateTimes. Request failed with Status Code 200 and Error Id 6"),
    # The outer's text found around the inner's but not before its placeholder: pip's message is not reqwest's.
    (record("error decoding {path}: {e}"), record("error decoding response body"),
     "Error: reqwest::Error { kind: Decode, source: error decoding response body: expected value }"),
    # Each on its own line: not one message inside the other.
    (BUILDX, BUILDKIT, "buildx failed with: exit status 1\n"
                       'process "/bin/sh -c make" did not complete successfully: exit code: 2'),
])
def test_messages_side_by_side_or_unrelated_are_not_wrapped(outer, inner, paste):
    assert not wraps(outer, inner, paste)


def test_distractors_are_mined_from_the_pinned_packages_only():
    """A profiler or a linter installed beside the locked packages must not
    change the distractors: a developer's figures would differ from CI's."""
    from bench import mine
    pinned = mine.pinned()
    assert {"pip", "setuptools", "pytest", "hypothesis", "ray"} <= pinned
    assert "pyflakes" not in pinned and "py-spy" not in pinned
    packages = {mine._dist_key(package) for _, _, package in mine._sources()}
    assert packages - pinned == {"cpython"}
