"""Reading the console's lines: prompt_toolkit in a terminal, plain lines otherwise.

* :class:`PromptReader` — in a terminal with prompt_toolkit installed: line editing,
  history (the up arrow) and Tab completion of commands, options and the legal actions.
* :class:`PlainReader` — standard input line by line (a pipe, a file, a test), in a
  daemon thread so that Ctrl-C never waits for a line; in a terminal without
  prompt_toolkit it uses ``input()`` with the readline module's editing, history and
  completion where Python has readline.

Both return ``None`` at the end of input (Ctrl-D) and raise :class:`KeyboardInterrupt`
for Ctrl-C at the prompt. What the console prints while a prompt waits (the clock's
notices) is printed inside :meth:`LineReader.above`: above the prompt, which then shows
again, the line typed so far kept.
"""

from __future__ import annotations

import asyncio
import contextlib
import threading
from collections.abc import Callable, Iterable
from contextlib import AbstractAsyncContextManager
from typing import Protocol, TextIO

Completions = Callable[[str], list[str]]
"""The words that may complete the last word of a line typed so far."""


class LineReader(Protocol):
    """Reads one line after showing ``prompt``; ``None`` at the end of input."""

    interactive: bool
    """Whether a person types at a terminal (a pipe's lines are echoed instead)."""

    async def read(self, prompt: str) -> str | None: ...

    def above(self) -> AbstractAsyncContextManager[None]:
        """Where to print while a prompt waits: the prompt steps aside meanwhile."""
        ...


def last_word(line: str) -> str:
    """The word being typed at the end of ``line`` (empty after a space)."""
    return "" if not line or line[-1].isspace() else line.split()[-1]


class PlainReader:
    """Lines of ``stdin``; in a terminal, ``input()`` with readline where there is one."""

    def __init__(self, stdin: TextIO, stdout: TextIO, completions: Completions) -> None:
        self.stdin = stdin
        self.stdout = stdout
        self.interactive = stdin.isatty()
        self._use_input = self.interactive and _setup_readline(completions)

    async def read(self, prompt: str) -> str | None:
        if self.interactive and not self._use_input:
            self.stdout.write(prompt)
            self.stdout.flush()
        loop = asyncio.get_running_loop()
        future: asyncio.Future[str | None] = loop.create_future()

        def deliver(line: str | None, error: BaseException | None) -> None:
            if future.done():
                return
            if error is not None:
                future.set_exception(error)
            else:
                future.set_result(line)

        def work() -> None:
            line: str | None
            try:
                if self._use_input:
                    line = input(prompt)
                else:
                    text = self.stdin.readline()
                    line = text.rstrip("\n") if text else None
            except EOFError:
                line = None
            except BaseException as exc:  # reported to the reading coroutine
                with contextlib.suppress(RuntimeError):  # the loop has closed
                    loop.call_soon_threadsafe(deliver, None, exc)
                return
            with contextlib.suppress(RuntimeError):
                loop.call_soon_threadsafe(deliver, line, None)

        # A daemon thread, not the loop's executor: at Ctrl-C the console ends without
        # waiting for a line that may never come.
        threading.Thread(target=work, name="console-input", daemon=True).start()
        return await future

    def above(self) -> AbstractAsyncContextManager[None]:
        """Lines are printed as they come (a pipe has no prompt to keep)."""
        return contextlib.nullcontext()


def _setup_readline(completions: Completions) -> bool:
    """Editing, history and Tab completion for ``input()``; False without readline."""
    try:
        import readline
    except ImportError:
        return False
    matches: list[str] = []

    def complete(text: str, state: int) -> str | None:
        if state == 0:
            matches[:] = completions(readline.get_line_buffer()[: readline.get_endidx()])
        return matches[state] if state < len(matches) else None

    readline.set_completer_delims(" ")
    readline.set_completer(complete)
    readline.parse_and_bind("tab: complete")
    return True


class PromptReader:
    """prompt_toolkit's prompt: editing, history, and completion while typing."""

    interactive = True

    def __init__(self, completions: Completions) -> None:
        from prompt_toolkit import PromptSession
        from prompt_toolkit.completion import CompleteEvent, Completer, Completion
        from prompt_toolkit.document import Document
        from prompt_toolkit.history import InMemoryHistory

        class WordCompleter(Completer):
            def get_completions(
                self, document: Document, complete_event: CompleteEvent
            ) -> Iterable[Completion]:
                before = document.text_before_cursor
                word = last_word(before)
                for candidate in completions(before):
                    yield Completion(candidate, start_position=-len(word))

        self.session: PromptSession[str] = PromptSession(
            history=InMemoryHistory(),
            completer=WordCompleter(),
            complete_while_typing=False,
        )

    async def read(self, prompt: str) -> str | None:
        try:
            return await self.session.prompt_async(prompt)
        except EOFError:
            return None

    def above(self) -> AbstractAsyncContextManager[None]:
        """prompt_toolkit steps the prompt aside, then draws it again as it was."""
        from prompt_toolkit.application import in_terminal

        return in_terminal()


def make_reader(stdin: TextIO, stdout: TextIO, completions: Completions) -> LineReader:
    """prompt_toolkit when both ends are a terminal and it is installed, else plain lines."""
    if stdin.isatty() and stdout.isatty():
        try:
            return PromptReader(completions)
        except ImportError:
            pass
    return PlainReader(stdin, stdout, completions)
