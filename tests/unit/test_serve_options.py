"""`papertui serve`'s options: who may connect, with which token, and one line for each
mistake, before anything listens."""

from __future__ import annotations

import pytest

from papertui.cli import main
from papertui.serve.options import (
    MIN_TOKEN,
    ServeError,
    base_url,
    check_options,
    is_loopback,
    warning,
)


def options(host: str = "127.0.0.1", token: str | None = None, **kw):  # type: ignore[no-untyped-def]
    return check_options(
        host, kw.get("port", 8000), token, kw.get("token_file"), kw.get("public_url"), []
    )


def test_a_random_token_is_made_when_none_is_given_and_differs_each_time():
    first, second = options(), options()
    assert not first.token_given and len(first.token) >= MIN_TOKEN
    assert first.token != second.token


@pytest.mark.parametrize("host", ["0.0.0.0", "192.168.1.20", "::", "papers.example.org"])
def test_another_machine_may_connect_only_with_an_explicit_token(host):
    with pytest.raises(ServeError, match="needs --token or --token-file.*not encrypted"):
        options(host)
    served = options(host, token="x" * 20)
    assert served.token == "x" * 20 and "not encrypted" in (warning(served) or "")


def test_behind_an_https_proxy_there_is_no_plain_http_warning():
    served = options("0.0.0.0", token="y" * 20, public_url="https://papers.example.org/")
    assert warning(served) is None
    assert base_url(served, 8000) == "https://papers.example.org"
    assert warning(options("127.0.0.1")) is None


@pytest.mark.parametrize("host", ["127.0.0.1", "127.0.0.2", "::1", "[::1]", "localhost"])
def test_loopback_addresses(host):
    assert is_loopback(host)


def test_a_short_token_is_refused():
    with pytest.raises(ServeError, match="at least 16"):
        options(token="secret")


def test_the_token_file_is_read_and_its_problems_named(tmp_path):
    path = tmp_path / "token"
    path.write_text("  a-long-enough-token-1234\n")
    assert options(token_file=str(path)).token == "a-long-enough-token-1234"
    path.write_text("\n")
    with pytest.raises(ServeError, match=f"{path} is empty"):
        options(token_file=str(path))
    with pytest.raises(ServeError, match="missing.txt: no such file"):
        options(token_file=str(tmp_path / "missing.txt"))
    with pytest.raises(ServeError, match="not both"):
        options(token="z" * 20, token_file=str(path))


@pytest.mark.parametrize("url", ["papers.example.org", "ftp://x.org", "https://x.org/?a=1"])
def test_a_public_url_is_an_http_address(url):
    with pytest.raises(ServeError, match="--public-url"):
        options(public_url=url)


def test_bad_serve_options_are_one_line_and_exit_2(capsys):
    assert main(["serve", "--host", "0.0.0.0"]) == 2
    assert main(["serve", "--port", "70000"]) == 2
    assert main(["serve", "no-such-dump.txt"]) == 2
    lines = capsys.readouterr().err.splitlines()
    assert len(lines) == 3
    assert "--token" in lines[0] and "0-65535" in lines[1] and "no-such-dump.txt" in lines[2]
