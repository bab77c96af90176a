"""The loop of `serve`: build, start the server, and rebuild whenever a watched
input changes, through the one `pipeline.build`."""
from __future__ import annotations

import os
import shutil
import tempfile
import threading
import time
import traceback
from pathlib import Path
from typing import Callable
from urllib.parse import urlsplit

import jinja2
import watchfiles

from ...config import ConfigError, Settings
from ...load import NoRecordFiles
from ...pages.render import TEMPLATES, template_error
from ...pipeline import STATIC, BuildSettings, build
from ...records import RenderFailed
from ..reporting import overlay_heading, summary_line
from .handler import DevServer, Status


ARMED_MS = 300       # how soon the watcher reports that it is armed, and then how often it looks up


def watched(settings: Settings) -> list[Path]:
    paths = [settings.records, STATIC, TEMPLATES, settings.templates, settings.config]
    return sorted({path.resolve() for path in paths if path is not None})


Stamp = dict[str, tuple[int, int]]


def inputs_stamp(paths: list[Path]) -> Stamp:
    """Every watched file's (mtime, size): what the watcher cannot tell us
    about the time before it was armed, an initial build's minutes included."""
    ignored = watchfiles.DefaultFilter()
    stamp: Stamp = {}
    for path in paths:
        for folder, _, names in os.walk(path) if path.is_dir() else [(str(path.parent), [], [path.name])]:
            for name in names:
                file = os.path.join(folder, name)
                if ignored(watchfiles.Change.modified, file):
                    try:
                        info = os.stat(file)
                    except OSError:  # gone meanwhile: the watcher will say so
                        continue
                    stamp[file] = (info.st_mtime_ns, info.st_size)
    return stamp


def changed_names(before: Stamp, after: Stamp) -> list[str]:
    return sorted({Path(file).name for file in before.keys() | after.keys() if before.get(file) != after.get(file)})


def serve(settings: Settings, reread: Callable[[], Settings] | None = None,
          report: Callable[[str], None] = print, stop: threading.Event | None = None,
          ready: Callable[[str, Path], None] | None = None) -> None:
    """Serve until `stop` is set or Ctrl-C. `reread` gives fresh settings when
    the config file changes; `ready` is told the URL and the folder served once
    the server is up."""
    stop = stop or threading.Event()
    status = Status()
    base_path = urlsplit(settings.base_url).path
    server = DevServer(settings.host, settings.port, base_path, Path(), status)  # OSError if taken
    workdir = Path(tempfile.mkdtemp(prefix="errorsite-serve-"))
    server.root = workdir / "site"
    host = settings.host if ":" not in settings.host else f"[{settings.host}]"
    url = f"http://{host}:{server.port}{base_path}"
    thread = threading.Thread(target=server.serve_forever, name="serve", daemon=True)
    try:
        stamp = inputs_stamp(watched(settings))
        rebuild(settings, server.root, url, status, report)
        thread.start()
        announced = False
        while not stop.is_set():
            paths = watched(settings)
            armed = False
            for changes in watchfiles.watch(*paths, stop_event=stop, rust_timeout=ARMED_MS, yield_on_timeout=True):
                names = sorted(Path(name).name for _, name in changes)
                if not armed:  # the first yield: from now on the watcher sees every change
                    armed = True
                    names = names or changed_names(stamp, inputs_stamp(paths))
                    if not announced:
                        announced = True
                        report(f"serving {url} — Ctrl-C stops")
                        if ready:
                            ready(url, server.root)
                if not names:
                    continue
                report(f"changed: {', '.join(names)}")
                if reread:
                    try:
                        settings = reread()
                    except ConfigError as error:
                        report(str(error))
                        status.publish(False, [], str(error))
                        continue
                moved = watched(settings) != paths
                if moved:  # a new watcher: what changes before it is armed is in the stamp
                    stamp = inputs_stamp(watched(settings))
                rebuild(settings, server.root, url, status, report)
                if moved:
                    break  # watch the folders the new settings name
    except KeyboardInterrupt:
        pass
    finally:
        status.stop()
        if thread.is_alive():
            server.shutdown()
        server.server_close()
        shutil.rmtree(workdir, ignore_errors=True)
        report("stopped")


def rebuild(settings: Settings, out: Path, url: str, status: Status, report: Callable[[str], None]) -> None:
    """One full build through `pipeline.build`; its outcome goes to the terminal and to `status`."""
    started = time.perf_counter()
    problems: list[str] = []

    def note(line: str) -> None:
        problems.append(line)
        report(line)

    try:
        result = build(settings.records, out, url, BuildSettings(
            strict=settings.strict, jobs=settings.jobs, options=settings.site_options, cache_dir=out.parent / "cache",
            report=note))
    except jinja2.TemplateError as error:
        message = f"template error: {template_error(error)}"
    except RenderFailed as failure:
        message = f"{failure.detail} (rendering {failure.record})"
    except NoRecordFiles as error:
        message = str(error)
    except Exception as error:  # whatever it was, the last good build stays served
        report(traceback.format_exc().rstrip())  # through `report`, which makes it safe for a CI log
        message = f"build failed: {type(error).__name__}: {error}"
    else:
        report(f"{summary_line(result)} ({time.perf_counter() - started:.2f} s)")
        status.publish(result.written, problems, None if result.written else summary_line(result),
                       overlay_heading(result))
        return
    report(f"{message} — still serving the last good build")
    status.publish(False, problems, message)
