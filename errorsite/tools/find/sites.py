"""The site `find` reads, trusted with nothing: a folder or a URL, from which
it takes only files of that site, each at most MAX_FILE_BYTES, all within one
Deadline.

A site is anyone's: its pages name the scripts to run and its engine names
the files to read next. So every path is checked before it is read (no `..`,
no way out of the folder or the base path, whatever its encoding); a folder's
symlinks may point only within it; over HTTP nothing follows a redirect off
the site (another scheme, host, port or path), and every wait on the network
gets only what is left of the search's deadline, so a server that answers a
byte at a time cannot hold it past it.
"""
from __future__ import annotations

import http.client
import io
import re
import socket
import stat
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from urllib.parse import quote, unquote, urljoin, urlsplit

from ... import __version__, urls

TIMEOUT = 30.0          # seconds for a whole search (--timeout)
# Larger than any file a site makes: the largest, a common word's postings
# (search/c/N.json), grows with the records, and 64 MB holds them for
# millions (docs/commands.md).
MAX_FILE_BYTES = 64 << 20
FETCHES_AT_ONCE = 8     # a round's files over HTTP, in parallel, as a browser asks for them
MAX_REDIRECTS = 5
REDIRECTS = (301, 302, 303, 307, 308)
CHUNK = 1 << 16


class FindError(Exception):
    """The site cannot be searched: unreadable, not an errorsite site, no
    engine, or it asked for what `find` refuses."""


class Deadline:
    """One time limit for a whole search: every wait on the network and every
    call into V8 gets what is left of it."""

    def __init__(self, seconds: float = TIMEOUT):
        self.seconds = seconds
        self.end = time.monotonic() + seconds

    def left(self) -> float:
        left = self.end - time.monotonic()
        if left <= 0:
            raise TimeoutError(self.message())
        return left

    def passed(self) -> bool:
        return time.monotonic() >= self.end

    def message(self) -> str:
        return f"the search took longer than its {self.seconds:g} s (--timeout)"


def checked(path: str) -> str:
    """A site path as the engine or a page names it, if it stays in the site:
    relative, no empty, `.` or `..` part, no backslash, NUL, `?` or `#`, as it
    is and once percent-decoded (a server decodes it)."""
    for form in (path, unquote(path)):
        try:
            urls.output_name(form)
        except ValueError:
            raise FindError(f"{path!r}: not a path in the site (refused)") from None
        if form.startswith("/") or "?" in form or "#" in form:
            raise FindError(f"{path!r}: not a path in the site (refused)")
    return path


class Site:
    """A built site to read files from: `read(path, deadline)` → bytes of a site path."""
    where: str = ""

    def read(self, path: str, deadline: Deadline) -> bytes:
        raise NotImplementedError

    def read_many(self, paths: list[str], deadline: Deadline) -> dict[str, bytes]:
        return {path: self.read(path, deadline) for path in paths}


class FolderSite(Site):
    def __init__(self, root: Path):
        self.root = root
        self.where = str(root)

    def read(self, path: str, deadline: Deadline) -> bytes:
        checked(path)
        try:
            root = self.root.resolve(strict=True)
            file = (root / urls.output_name(path)).resolve(strict=True)
            if not file.is_relative_to(root):  # a symlink out of the site
                raise FindError(f"{self.root}: {path} is a link out of the site folder (refused)")
            info = file.stat()
            if not stat.S_ISREG(info.st_mode):  # a FIFO would wait forever, a device never end
                raise FindError(f"{self.root}: {path} is not a file (refused)")
            if info.st_size > MAX_FILE_BYTES:
                raise FindError(too_large(f"{self.root}: {path}"))
            with open(file, "rb") as opened:
                content = opened.read(MAX_FILE_BYTES + 1)
        except (OSError, RuntimeError) as error:  # RuntimeError: a loop of symlinks
            raise FindError(f"{self.root}: cannot read {path} ({getattr(error, 'strerror', None) or error})") from None
        if len(content) > MAX_FILE_BYTES:
            raise FindError(too_large(f"{self.root}: {path}"))
        return content


def too_large(where: str) -> str:
    return f"{where}: over {MAX_FILE_BYTES >> 20} MB, larger than any file a site makes (refused)"


class WebSite(Site):
    def __init__(self, base_url: str):
        self.base = base_url if base_url.endswith("/") else base_url + "/"
        self.where = self.base
        parts = urlsplit(self.base)
        self.scheme, self.netloc, self.base_path = parts.scheme.lower(), parts.netloc.lower(), parts.path

    def read(self, path: str, deadline: Deadline) -> bytes:
        url = self.base + quote(checked(path), safe="/%:@!$&'()*+,;=~")
        for _ in range(MAX_REDIRECTS + 1):
            content, location = self.get(url, deadline)
            if location is None:
                return content
            target = urljoin(url, location)
            if not self.holds(target):
                raise FindError(f"{url}: redirected to {target}, off the site (refused)")
            url = target
        raise FindError(f"{url}: more than {MAX_REDIRECTS} redirects")

    def holds(self, url: str) -> bool:
        """Whether `url` is a file of this site: its scheme, host and port, under its base path."""
        parts = urlsplit(url)
        if (parts.scheme.lower(), parts.netloc.lower()) != (self.scheme, self.netloc) or parts.query or parts.fragment:
            return False
        if not parts.path.startswith(self.base_path):
            return False
        try:
            checked(parts.path[len(self.base_path):])
        except FindError:
            return False
        return True

    def get(self, url: str, deadline: Deadline) -> tuple[bytes, str | None]:
        """The body of a 200, or the Location of a redirect."""
        parts = urlsplit(url)
        kind = http.client.HTTPSConnection if parts.scheme.lower() == "https" else http.client.HTTPConnection
        try:
            connection, waits = kind(parts.hostname, parts.port, timeout=deadline.left()), None
            try:
                connection.connect()
                connection.sock = waits = Waits(connection.sock, deadline)
                connection.request("GET", parts.path, headers={"User-Agent": f"errorsite-find/{__version__}",
                                                               "Accept-Encoding": "identity"})
                response = connection.getresponse()
                if response.status in REDIRECTS:
                    return b"", response.getheader("Location") or ""
                if response.status != 200:
                    raise FindError(f"{url}: HTTP {response.status} {response.reason}")
                if int(response.getheader("Content-Length") or 0) > MAX_FILE_BYTES:
                    raise FindError(too_large(url))
                return body(response, url), None
            finally:
                connection.close()
                if waits is not None:
                    waits.sock.close()
        except (OSError, http.client.HTTPException, ValueError) as error:
            if deadline.passed():
                raise FindError(f"{url}: {deadline.message()}") from None
            raise FindError(f"{url}: {error}") from None

    def read_many(self, paths: list[str], deadline: Deadline) -> dict[str, bytes]:
        with ThreadPoolExecutor(max_workers=min(FETCHES_AT_ONCE, max(1, len(paths)))) as pool:
            return dict(zip(paths, pool.map(lambda path: self.read(path, deadline), paths)))


def body(response: http.client.HTTPResponse, url: str) -> bytes:
    chunks, size = [], 0
    while chunk := response.read(CHUNK):
        size += len(chunk)
        if size > MAX_FILE_BYTES:
            raise FindError(too_large(url))
        chunks.append(chunk)
    return b"".join(chunks)


class Waits:
    """A connected socket whose every send and receive waits only for what is
    left of the deadline (a socket's own timeout counts each wait anew)."""

    def __init__(self, sock: socket.socket, deadline: Deadline):
        self.sock, self.deadline = sock, deadline

    def sendall(self, data: bytes) -> None:
        self.sock.settimeout(self.deadline.left())
        self.sock.sendall(data)

    def makefile(self, mode: str) -> io.BufferedReader:
        return io.BufferedReader(Received(self))

    def close(self) -> None:
        """Nothing: http.client closes a connection the server will close as
        soon as its headers are read, before its body; `get` closes the socket."""


class Received(io.RawIOBase):
    def __init__(self, waits: Waits):
        self.waits = waits

    def readable(self) -> bool:
        return True

    def readinto(self, buffer) -> int:
        self.waits.sock.settimeout(self.waits.deadline.left())
        return self.waits.sock.recv_into(buffer)


def open_site(where: str) -> Site:
    """A site folder, or the URL of a hosted site (http:// or https://)."""
    if re.match(r"https?://", where, re.I):
        parts = urlsplit(where)
        if not parts.hostname or parts.query or parts.fragment:
            raise FindError(f"{where}: not a site's URL (give --site the http(s) URL it is served from)")
        return WebSite(where)
    root = Path(where)
    if not root.is_dir():
        raise FindError(f"{where}: no such folder (give --site a built site's folder or its URL)")
    return FolderSite(root)
