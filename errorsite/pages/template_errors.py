"""How a failed template is told: one line, `templates/x.html:3: message`.

Jinja rewrites a traceback so that each frame of template code carries the
template's file and line; the innermost such frame is where the template
failed. A template's own code can fail in ways Jinja does not wrap in a
TemplateError (`{{ 1/0 }}`, a macro that calls itself without end): those
become a TemplateFailed here, so every layer above handles them as it does a
typo. What Python code called from a template raises (a filter's bug) stays
as it is, traceback and all: it is not the template's fault.
"""
from __future__ import annotations

import os
import traceback
from contextlib import contextmanager

import jinja2
import markupsafe

# Frames in these packages run template code but are not the template's own.
_MACHINERY = tuple(os.path.dirname(module.__file__) + os.sep for module in (jinja2, markupsafe))


class TemplateFailed(jinja2.TemplateError):
    """A template's own code raised as it ran; the message is template_error's line."""


def _in_template(frame: traceback.FrameSummary) -> bool:
    """A frame of template code: a rewritten traceback names the template's file, never a .py one."""
    return not frame.filename.endswith(".py") and not frame.filename.startswith("<")


def template_failure(error: BaseException) -> TemplateFailed | None:
    """The error as a TemplateFailed when the template's own code raised it:
    the innermost frame outside Jinja is the template's, or the template
    recursed too deep. None for a TemplateError (told as it is) and for what
    Python code called from the template raised."""
    if isinstance(error, jinja2.TemplateError):
        return None
    frames = traceback.extract_tb(error.__traceback__)
    templates = [frame for frame in frames if _in_template(frame)]
    own = [frame for frame in frames if not frame.filename.startswith(_MACHINERY)]
    if not templates or not (own and _in_template(own[-1]) or isinstance(error, RecursionError)):
        return None
    where = templates[-1]
    message = " ".join(f"{type(error).__name__}: {error}".split())  # on one line, whatever it holds
    return TemplateFailed(f"{where.filename}:{where.lineno}: {message}")


@contextmanager
def template_code(env: jinja2.Environment):
    """Around template code called from Python (a macro, a template's module):
    its errors are told as a render's are, which Jinja does only for a render."""
    try:
        yield
    except Exception:
        env.handle_exception()


def template_error(error: jinja2.TemplateError) -> str:
    """`templates/x.html:3: message`: where in which template a build failed."""
    where = None
    if isinstance(error, jinja2.TemplateSyntaxError) and error.filename:
        where = f"{error.filename}:{error.lineno}"
    elif not isinstance(error, TemplateFailed):  # whose message says where already
        frames = [frame for frame in traceback.extract_tb(error.__traceback__) if _in_template(frame)]
        if frames:
            where = f"{frames[-1].filename}:{frames[-1].lineno}"
    message = error.message if isinstance(error, jinja2.TemplateSyntaxError) else str(error)
    if isinstance(error, jinja2.TemplateNotFound):
        message = f"template not found: {error.name}"
    return f"{where}: {message}" if where else message
