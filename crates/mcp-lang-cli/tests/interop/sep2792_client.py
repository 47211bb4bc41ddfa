"""SEP-2792 interop: the official Python MCP SDK as the client of `mcp-lang serve`.

Usage: sep2792_client.py stdio MCP_LANG_BINARY
       sep2792_client.py http URL

Checks, for each transport: initialize; tools/list with the preference in
_meta (and, on HTTP, one agreeing Accept-Language line, set by an httpx event
hook from the request's own _meta, and a Content-Language that agrees with
the response's contentLanguage); localized titles with stable names; a
tools/call with progress whose messages are in the request's language.
Prints one JSON line per check and exits non-zero on the first failure.
"""

import json
import sys

import anyio
import httpx2 as httpx
from mcp import ClientSession, types
from mcp.client.stdio import StdioServerParameters, stdio_client
from mcp.client.streamable_http import streamable_http_client

ACCEPT = "io.modelcontextprotocol/acceptLanguage"
CONTENT = "io.modelcontextprotocol/contentLanguage"

EXPECTED = {
    "fr-CA,fr;q=0.9,en;q=0.5": ("fr-CA", "Météo actuelle"),
    "de": ("de", "Aktuelles Wetter"),
    "ja": ("ja", "現在の天気"),
    "tlh": ("en", "Current weather"),
}
NAMES = ["weather_current", "get_official_document", "send_confirmation", "prepare_report"]
PROGRESS_GA = [
    "Sonraí á mbailiú (1 as 4)…",
    "Sonraí á n-anailísiú (2 as 4)…",
    "An tuarascáil á scríobh (3 as 4)…",
    "Tá an tuarascáil réidh.",
]

http_seen = []  # (request Accept-Language lines, response Content-Language lines, body _meta)


def check(name, ok, detail):
    print(json.dumps({"check": name, "ok": bool(ok), "detail": detail}, ensure_ascii=False), flush=True)
    if not ok:
        raise SystemExit(f"FAILED: {name}: {detail}")


async def mirror_accept_language(request):
    """Client-side mirroring: exactly one Accept-Language line equal to _meta."""
    if "accept-language" in request.headers:
        del request.headers["accept-language"]
    try:
        body = json.loads(request.content or b"null")
    except ValueError:
        return
    meta = ((body or {}).get("params") or {}).get("_meta") or {} if isinstance(body, dict) else {}
    value = meta.get(ACCEPT)
    if isinstance(value, str):
        request.headers["Accept-Language"] = value


async def record_response(response):
    request = response.request
    lines = request.headers.get_list("accept-language")
    http_seen.append((lines, response.headers.get_list("content-language"),
                      response.headers.get("content-type", "")))


async def exercise(session, transport):
    init = await session.initialize()
    check(f"{transport}:initialize", init.server_info.name == "mcp-lang-reference", init.server_info.name)

    for preference, (tag, title) in EXPECTED.items():
        result = await session.list_tools(params=types.PaginatedRequestParams(_meta={ACCEPT: preference}))
        meta = result.meta or {}
        names = [t.name for t in result.tools]
        titles = {t.name: t.title for t in result.tools}
        check(f"{transport}:tools/list {preference}:names", names == NAMES, names)
        check(f"{transport}:tools/list {preference}:title", titles.get("weather_current") == title,
              titles.get("weather_current"))
        check(f"{transport}:tools/list {preference}:contentLanguage", meta.get(CONTENT) == tag, meta)
        if transport == "http":
            sent, received, content_type = http_seen[-1]
            check(f"http:tools/list {preference}:Accept-Language", sent == [preference], sent)
            if "json" in content_type:
                check(f"http:tools/list {preference}:Content-Language", received == [tag], received)

    messages = []

    async def on_progress(progress, total, message):
        messages.append(message)

    result = await session.call_tool("prepare_report", {}, progress_callback=on_progress, meta={ACCEPT: "ga"})
    check(f"{transport}:tools/call progress messages", messages == PROGRESS_GA, messages)
    check(f"{transport}:tools/call contentLanguage", (result.meta or {}).get(CONTENT) == "en", result.meta)

    result = await session.call_tool("get_official_document", {"document": "udhr-article-1", "language": "ga"},
                                     meta={ACCEPT: "en"})
    check(f"{transport}:explicit language wins", (result.meta or {}).get(CONTENT) == "ga", result.meta)


async def main():
    transport, target = sys.argv[1], sys.argv[2]
    if transport == "stdio":
        params = StdioServerParameters(command=target, args=["serve", "--stdio"], env={"RUST_LOG": "warn"})
        async with stdio_client(params) as (read, write):
            async with ClientSession(read, write) as session:
                await exercise(session, "stdio")
    else:
        client = httpx.AsyncClient(event_hooks={"request": [mirror_accept_language],
                                                "response": [record_response]})
        async with client:
            async with streamable_http_client(target, http_client=client) as streams:
                read, write = streams[0], streams[1]
                async with ClientSession(read, write) as session:
                    await exercise(session, "http")
    print(json.dumps({"transport": transport, "result": "pass"}), flush=True)


anyio.run(main)
