"""The hostile probe's HTTP side: a keep-alive API client, a signed-in browser, verdicts.

Why apart from :mod:`bench.hostile`: the attempts (issue #25's and #37's, in their own
modules) all speak through these, and each module stays one thing.
"""

from __future__ import annotations

import http.client
import io
import json
import urllib.parse
import uuid
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

HELD, BROKEN, NOT_RUN = "held", "broken", "not run"


@dataclass
class Answer:
    status: int
    body: Any
    headers: dict[str, str]
    text: str

    @property
    def code(self) -> str:
        return self.body.get("code", "") if isinstance(self.body, dict) else ""

    def __str__(self) -> str:
        return f"{self.status} {self.code}".strip()


@dataclass
class Row:
    item: str
    tried: str
    answer: str
    verdict: str


class Client:
    """One keep-alive connection; a fresh one after any connection error."""

    def __init__(self, host: str, port: int) -> None:
        self.host, self.port = host, port
        self.conn = http.client.HTTPConnection(host, port, timeout=60)

    def send(
        self,
        method: str,
        path: str,
        body: Any = None,
        *,
        token: str | None = None,
        headers: dict[str, str] | None = None,
        raw: bytes | None = None,
        content_type: str = "application/json",
    ) -> Answer:
        sent = {"Accept": "application/json", **(headers or {})}
        if token:
            sent["Authorization"] = f"Token {token}"
        data = raw
        if data is None and body is not None:
            data = json.dumps(body).encode()
        if data is not None:
            sent["Content-Type"] = content_type
        try:
            self.conn.request(method, path, body=data, headers=sent)
            response = self.conn.getresponse()
            payload = response.read()
        except (OSError, http.client.HTTPException):
            self.conn.close()
            self.conn = http.client.HTTPConnection(self.host, self.port, timeout=60)
            raise
        text = payload.decode("utf-8", "replace")
        try:
            parsed: Any = json.loads(text) if text else None
        except ValueError:
            parsed = None
        return Answer(response.status, parsed, dict(response.getheaders()), text)


def multipart(fields: dict[str, str], files: list[tuple[str, bytes]]) -> tuple[bytes, str]:
    boundary = f"hostile{uuid.uuid4().hex}"
    out = io.BytesIO()
    for name, value in fields.items():
        out.write(f'--{boundary}\r\nContent-Disposition: form-data; name="{name}"\r\n\r\n'.encode())
        out.write(f"{value}\r\n".encode())
    for filename, content in files:
        out.write(
            f'--{boundary}\r\nContent-Disposition: form-data; name="files"; '
            f'filename="{filename}"\r\nContent-Type: text/plain\r\n\r\n'.encode()
        )
        out.write(content + b"\r\n")
    out.write(f"--{boundary}--\r\n".encode())
    return out.getvalue(), f"multipart/form-data; boundary={boundary}"


class Browser:
    """A signed-in browser: the session and CSRF cookies, forms posted as a page does."""

    def __init__(self, host: str, port: int) -> None:
        self.host, self.port = host, port
        self.cookies: dict[str, str] = {}
        self.last_text = ""

    def _request(self, method: str, path: str, form: dict[str, str] | None = None) -> Any:
        conn = http.client.HTTPConnection(self.host, self.port, timeout=60)
        headers = {
            "Cookie": "; ".join(f"{k}={v}" for k, v in self.cookies.items()),
            "Referer": f"http://{self.host}:{self.port}{path}",
        }
        data = None
        if form is not None:
            fields = {**form, "csrfmiddlewaretoken": self.cookies.get("csrftoken", "")}
            data = urllib.parse.urlencode(fields).encode()
            headers["Content-Type"] = "application/x-www-form-urlencoded"
        conn.request(method, path, body=data, headers=headers)
        response = conn.getresponse()
        self.last_text = response.read().decode("utf-8", "replace")
        for name, value in response.getheaders():
            if name.lower() == "set-cookie":
                key, _, rest = value.partition("=")
                self.cookies[key.strip()] = rest.split(";", 1)[0]
        conn.close()
        return response

    def sign_in(self, username: str, password: str) -> bool:
        self._request("GET", "/accounts/login/")
        self._request("POST", "/accounts/login/", {"username": username, "password": password})
        return "sessionid" in self.cookies

    def post_form(self, path: str, form: dict[str, str]) -> Any:
        if "csrftoken" not in self.cookies:
            self._request("GET", path)
        return self._request("POST", path, form)


Attempt = Callable[[Client, dict[str, Any]], list[Row]]


def held_or_broken(held: bool) -> str:
    return HELD if held else BROKEN
