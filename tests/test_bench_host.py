"""The benchmark's stand-in for a static host: text gzipped for a client that
accepts it, the rest as stored, one connection kept for several requests."""
from __future__ import annotations

import gzip
import http.client

from bench.host import StaticHost


def test_text_is_gzipped_on_a_kept_connection_and_the_rest_is_as_stored(tmp_path):
    data = b'{"postings": [' + b"1, 2.5, " * 2000 + b"3]}"
    (tmp_path / "-" / "search").mkdir(parents=True)
    (tmp_path / "-" / "search" / "t.json").write_bytes(data)
    (tmp_path / "card.png").write_bytes(b"\x89PNG made up")
    (tmp_path / "index.html").write_bytes(b"<!doctype html><title>home</title>")
    host = StaticHost(tmp_path, ahead=("-/search/",))
    connection = http.client.HTTPConnection("127.0.0.1", host.port)
    try:
        for accept in ("gzip, deflate, br", ""):
            connection.request("GET", "/-/search/t.json?v=1", headers={"Accept-Encoding": accept})
            response = connection.getresponse()
            body = response.read()
            assert response.status == 200 and response.getheader("Content-Type") == "application/json"
            if accept:
                assert response.getheader("Content-Encoding") == "gzip" and len(body) < len(data) / 10
                assert gzip.decompress(body) == data
            else:
                assert response.getheader("Content-Encoding") is None and body == data
        connection.request("GET", "/card.png", headers={"Accept-Encoding": "gzip"})
        response = connection.getresponse()
        assert response.getheader("Content-Encoding") is None and response.read() == b"\x89PNG made up"
        connection.request("GET", "/", headers={"Accept-Encoding": "gzip"})  # a folder is its index.html
        response = connection.getresponse()
        assert gzip.decompress(response.read()).startswith(b"<!doctype html>")
        connection.request("GET", "/-/search", headers={"Accept-Encoding": "gzip"})
        response = connection.getresponse()
        response.read()
        assert response.status == 301 and response.getheader("Location") == "/-/search/"
    finally:
        connection.close()
        host.close()
