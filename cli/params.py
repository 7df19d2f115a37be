"""Cheap coercion of the CLI's plain parameters (str, int, Path, and lists of them).

Typer coerces every non-flag parameter through a pydantic ``TypeAdapter``; importing pydantic for
that costs more than importing Typer itself, on every call, for parameters that are a string or a
whole number. The CLI is typed once per move, so parameters of those plain types are coerced here
instead; anything else (and any Typer without the hook) falls back to Typer's own coercion.
The messages are ours too: ``'x' is not a whole number``, ``0 is below the minimum 1``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, get_args, get_origin

from solrec.core.words import quoted

_PLAIN = (str, int, Path, bool)
_TRUE = {"1", "true", "yes", "on", "y", "t"}
_FALSE = {"0", "false", "no", "off", "n", "f"}


def _coerce_one(kind: type, value: Any, info: Any, fail: Any) -> Any:
    if kind is bool:
        if isinstance(value, bool):
            return value
        word = str(value).strip().lower()
        if word in _TRUE or word in _FALSE:
            return word in _TRUE
        fail(f"{quoted(shorten(str(value)))} is not a yes/no value")
    if kind is str:
        return value if isinstance(value, str) else str(value)
    if kind is Path:
        return value if isinstance(value, Path) else Path(value)
    if isinstance(value, int) and not isinstance(value, bool):
        number = value
    else:
        text = str(value).strip()
        try:
            number = int(text)
        except ValueError:
            fail(f"{quoted(shorten(text))} is not a whole number")
    if info.min is not None and number < info.min:
        fail(f"{number} is below the minimum {info.min}")
    if info.max is not None and number > info.max:
        fail(f"{number} is above the maximum {info.max}")
    return number


def shorten(text: str, limit: int = 40) -> str:
    return text if len(text) <= limit else text[: limit - 3] + "..."


def install() -> None:
    """Route plain parameters around pydantic (once; a no-op on a Typer without the hook)."""
    try:
        from typer import core
        from typer._click.exceptions import BadParameter
        from typer._coercion import RuntimeParam
    except ImportError:  # pragma: no cover - another Typer: keep its coercion
        return
    if getattr(core._TyperParameter, "_solrec_fast", False):
        return
    original = core._TyperParameter.get_runtime_param

    class PlainParam(RuntimeParam):
        def _coerce_value(self, value: Any, param: Any, ctx: Any) -> Any:
            def fail(message: str) -> None:
                raise BadParameter(message, ctx=ctx, param=param)

            annotation = self.annotation
            if get_origin(annotation) is list:
                (kind,) = get_args(annotation)
                return [_coerce_one(kind, v, self.parameter_info, fail) for v in value]
            return _coerce_one(annotation, value, self.parameter_info, fail)

    def plain_kind(annotation: Any) -> bool:
        if get_origin(annotation) is list:
            args = get_args(annotation)
            return len(args) == 1 and args[0] in _PLAIN
        return annotation in _PLAIN

    def get_runtime_param(self: Any) -> Any:
        if self._runtime_param is None:
            desc = self.type_descriptor
            info = desc.parameter_info
            if plain_kind(desc.annotation) and info.parser is None and desc.file_annotation is None:
                self._runtime_param = PlainParam(parameter_info=info, annotation=desc.annotation)
            else:
                return original(self)
        return self._runtime_param

    core._TyperParameter.get_runtime_param = get_runtime_param  # type: ignore[method-assign]
    core._TyperParameter._solrec_fast = True  # type: ignore[attr-defined]
