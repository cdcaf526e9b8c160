"""Finding a release file's download address on a package index (PEP 503/691 simple API).

Only the standard library: `aka tasks fetch` must work in a bare environment. The index is
`$AKA_PACKAGE_INDEX` (default https://pypi.org/simple); a `file://` index is a folder with one
`<project>/index.html` per project, as pip reads it, which the tests use to stand in for PyPI.
"""

from __future__ import annotations

import json
import os
import re
import urllib.parse
import urllib.request
from html.parser import HTMLParser
from pathlib import Path

DEFAULT_INDEX = "https://pypi.org/simple"
TIMEOUT_S = 60
_ACCEPT = "application/vnd.pypi.simple.v1+json, text/html;q=0.1"


class IndexUnavailable(OSError):
    """The index could not be read, or does not list the file (an OSError: network-like)."""


def index_url() -> str:
    return (os.environ.get("AKA_PACKAGE_INDEX") or DEFAULT_INDEX).rstrip("/")


def normalize(project: str) -> str:
    """PEP 503 project name normalization."""
    return re.sub(r"[-_.]+", "-", project).lower()


class _Anchors(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.links: list[tuple[str, str]] = []  # (href, text)
        self._href: str | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "a":
            self._href = dict(attrs).get("href")

    def handle_data(self, data: str) -> None:
        if self._href is not None:
            self.links.append((self._href, data.strip()))
            self._href = None


def _read_page(page: str) -> tuple[str, str]:
    """(content type, text) of a project page."""
    if page.startswith("file://"):
        path = Path(urllib.parse.urlparse(page).path) / "index.html"
        try:
            return "text/html", path.read_text()
        except OSError as exc:
            raise IndexUnavailable(f"cannot read {path}: {exc.strerror}") from None
    request = urllib.request.Request(page, headers={"Accept": _ACCEPT})
    with urllib.request.urlopen(request, timeout=TIMEOUT_S) as response:  # noqa: S310
        return response.headers.get("Content-Type", ""), response.read().decode()


def release_url(project: str, filename: str, index: str | None = None) -> str:
    """The download address of `filename` of `project` on the index."""
    page = f"{index or index_url()}/{normalize(project)}/"
    content_type, text = _read_page(page)
    if "json" in content_type:
        files = [(f.get("url", ""), f.get("filename", "")) for f in json.loads(text)["files"]]
    else:
        parser = _Anchors()
        parser.feed(text)
        files = parser.links
    for href, name in files:
        if name == filename or urllib.parse.urlparse(href).path.endswith("/" + filename):
            return urllib.parse.urljoin(page, href).split("#", 1)[0]
    raise IndexUnavailable(f"{page} does not list {filename}")


def download(url: str, dest: Path) -> None:
    """Copy `url` into `dest` (a file or an https address)."""
    with urllib.request.urlopen(url, timeout=TIMEOUT_S) as response, \
            open(dest, "wb") as out:  # noqa: S310
        while chunk := response.read(1 << 20):
            out.write(chunk)
