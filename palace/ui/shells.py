"""`palace completion bash|zsh|fish`: a completion script for the shell, made from the argparse parser.

Commands, actions, options and choices are in the script itself. What only the palace knows is asked for on
TAB with `palace completion --complete KIND --word TYPED`: memory paths after `memory save` / `memory forget`,
session ids after `sessions show` / `sessions extract` / `chat --resume`, wings after `--wing`. Arguments say
which they take with the `complete_with` mark that ui/parser.py puts on them.
"""

from __future__ import annotations

import argparse
import os
from pathlib import Path

from palace.record import field, record

SHELLS = ("bash", "zsh", "fish")
KINDS = ("paths", "sessions", "wings")


@record
class Node:
    """One command level: `palace memory` is ("memory",)."""

    path: tuple[str, ...]
    subs: list[tuple[str, str]] = field(default_factory=list)  # (subcommand or choice, help)
    options: list[tuple[str, str]] = field(default_factory=list)  # (option string, help)
    first: str = ""  # what the first positional argument completes from the palace ("paths"...), if anything
    kinds: dict[str, str] = field(default_factory=dict)  # option string -> what its value completes from
    valued: set[str] = field(default_factory=set)  # options followed by a value (not a positional)


def command_tree(parser: argparse.ArgumentParser, path: tuple[str, ...] = ()) -> list[Node]:
    """Every command level of the parser, the top first."""
    node = Node(path)
    nodes = [node]
    positionals = 0
    for action in parser._actions:
        kind = getattr(action, "complete_with", "")
        if isinstance(action, argparse._SubParsersAction):
            helps = {choice.dest: choice.help or "" for choice in action._choices_actions}
            for name, sub in action.choices.items():
                if helps.get(name, "").startswith("(internal)"):
                    continue  # run by git, not by people
                node.subs.append((name, helps.get(name, "")))
                nodes += command_tree(sub, (*path, name))
        elif action.option_strings:
            if action.help == argparse.SUPPRESS:
                continue  # what the scripts themselves call
            node.options += [(flag, action.help or "") for flag in action.option_strings]
            node.kinds.update(dict.fromkeys(action.option_strings, kind) if kind else {})
            if action.nargs is None or (isinstance(action.nargs, int) and action.nargs > 0):
                node.valued.update(action.option_strings)
        elif action.choices:
            node.subs += [(str(choice), "") for choice in action.choices]
        else:
            node.first = kind if positionals == 0 else node.first
            positionals += 1
    return nodes


# ---------------------------------------------------------------------- what the palace holds


def _key(text: str) -> str:
    """What typed text is compared by: case, spaces, "-" and "_" aside (`project-k` starts `ProjectKnowledge/`)."""
    return "".join(ch for ch in text.casefold() if ch not in " -_")


def completion_words(kind: str, typed: str, home: Path) -> list[str]:
    """The palace's words of a kind that what was typed begins; [] when there are none (or nothing to read)."""
    if kind == "sessions":
        return _session_ids(typed, home)
    words = _memory_words(home, wings_only=kind == "wings")
    return [word for word in words if _key(word).startswith(_key(typed))]


def _session_ids(typed: str, home: Path) -> list[str]:
    """Session ids, newest first, that typed begins (or whose hex part it begins, as `sessions show` takes)."""
    from palace.paths import SESSIONS, session_file

    try:
        names = os.listdir(home / SESSIONS)
    except OSError:
        return []
    ids = {found.session_id for found in map(session_file, names) if found is not None}
    wanted = typed.casefold()
    return [sid for sid in sorted(ids, reverse=True) if sid.startswith(wanted) or sid[11:].startswith(wanted)]


def _memory_words(home: Path, *, wings_only: bool) -> list[str]:
    """The wings of memories.md, or its paths: each room, and each hall (shared and per wing) as a start.

    A hall is written without its space (`ProjectKnowledge/db`, which every command reads as `Project
    Knowledge/db`), so that a path is one shell word that needs no quotes."""
    from palace.errors import PalaceError
    from palace.memory.document import Document
    from palace.memory.halls import Hall
    from palace.paths import MEMORIES

    try:
        doc = Document.parse((home / MEMORIES).read_bytes())
        wings = doc.wings()
        entries = doc.entries
    except (OSError, PalaceError):
        return []
    if wings_only:
        return sorted(wings, key=str.casefold)
    words = {f"{wing + '/' if wing else ''}{hall.value.replace(' ', '')}/" for wing in (None, *wings) for hall in Hall}
    for entry in entries:
        if entry.path is not None:
            where = f"{entry.path.wing}/" if entry.path.wing else ""
            words.add(f"{where}{entry.path.hall.value.replace(' ', '')}/{entry.path.room}")
    return sorted(words, key=str.casefold)


# ---------------------------------------------------------------------- the scripts


def _quote(text: str) -> str:
    return "'" + text.replace("'", "'\\''") + "'"


def _case_paths(nodes: list[Node]) -> str:
    return "|".join("/" + "/".join(n.path) for n in nodes if n.path)


def _valued(nodes: list[Node]) -> str:
    return " ".join(sorted({option for node in nodes for option in node.valued}))


def _kinds(node: Node) -> str:
    return " ".join(f"{option}={kind}" for option, kind in node.kinds.items())


def bash_script(nodes: list[Node]) -> str:
    cases = "\n".join(
        f'        "{"/" + "/".join(n.path) if n.path else ""}") subs={_quote(" ".join(s for s, _ in n.subs))}; '
        f"opts={_quote(' '.join(o for o, _ in n.options))}; first={n.first}; kinds={_quote(_kinds(n))} ;;"
        for n in nodes
    )
    return f"""# palace completion for bash; add to ~/.bashrc:  eval "$(palace completion bash)"
_palace_complete() {{
    local cur=${{COMP_WORDS[COMP_CWORD]}} prev=${{COMP_WORDS[COMP_CWORD-1]}} path="" word i subs="" opts=""
    local first="" kinds="" kind="" npos=0 skip=0 valued={_quote(_valued(nodes))}
    for ((i = 1; i < COMP_CWORD; i++)); do
        word=${{COMP_WORDS[i]}}
        if ((skip)); then skip=0; continue; fi
        case "$path/$word" in
            {_case_paths(nodes)}) path="$path/$word"; npos=0; continue ;;
        esac
        case " $valued " in *" $word "*) skip=1; continue ;; esac
        [[ $word == -* ]] || ((npos++))
    done
    case "$path" in
{cases}
    esac
    for word in $kinds; do [[ $prev == "${{word%%=*}}" ]] && kind=${{word#*=}}; done
    [[ -z $kind && $cur != -* && $npos == 0 && " $valued " != *" $prev "* ]] && kind=$first
    if [[ -n $kind ]]; then
        local IFS=$'\\n'
        COMPREPLY=($(palace completion --complete "$kind" --word="$cur" 2>/dev/null))
        [[ ${{#COMPREPLY[@]}} == 1 && ${{COMPREPLY[0]}} == */ ]] && compopt -o nospace 2>/dev/null
        return 0
    fi
    if [[ $cur == -* ]]; then
        COMPREPLY=($(compgen -W "$opts" -- "$cur"))
    elif [[ -n $subs ]]; then
        COMPREPLY=($(compgen -W "$subs" -- "$cur"))
    fi
}}
complete -o default -F _palace_complete palace
"""


def zsh_script(nodes: list[Node]) -> str:
    def described(items: list[tuple[str, str]]) -> str:
        return " ".join(_quote(name.replace(":", "\\:") + ":" + text) for name, text in items)

    cases = "\n".join(
        f'        ("{"/" + "/".join(n.path) if n.path else ""}") subs=({described(n.subs)}); '
        f"opts=({' '.join(_quote(o) for o, _ in n.options)}); first={n.first}; kinds=({_kinds(n)}) ;;"
        for n in nodes
    )
    return f"""#compdef palace
# palace completion for zsh; add to ~/.zshrc (after compinit):  eval "$(palace completion zsh)"
_palace() {{
    local cmdpath="" word i first="" kind="" npos=0 skip=0 prev=${{words[CURRENT-1]}} valued={_quote(_valued(nodes))}
    local -a subs opts kinds found
    for ((i = 2; i < CURRENT; i++)); do
        word=${{words[i]}}
        if ((skip)); then skip=0; continue; fi
        case "$cmdpath/$word" in
            ({_case_paths(nodes)}) cmdpath="$cmdpath/$word"; npos=0; continue ;;
        esac
        if [[ " $valued " == *" $word "* ]]; then skip=1; continue; fi
        [[ $word == -* ]] || ((npos++))
    done
    case "$cmdpath" in
{cases}
    esac
    for word in $kinds; do [[ $prev == "${{word%%=*}}" ]] && kind=${{word#*=}}; done
    [[ -z $kind && ${{words[CURRENT]}} != -* && $npos == 0 && " $valued " != *" $prev "* ]] && kind=$first
    if [[ -n $kind ]]; then
        found=(${{(f)"$(palace completion --complete $kind --word=${{words[CURRENT]}} 2>/dev/null)"}})
        compadd -U -S '' -- ${{(M)found:#*/}}
        compadd -U -- ${{found:#*/}}
    elif [[ ${{words[CURRENT]}} == -* ]]; then
        compadd -a opts
    elif (( ${{#subs}} )); then
        _describe 'palace command' subs
    else
        _files
    fi
}}
compdef _palace palace
"""


def fish_script(nodes: list[Node]) -> str:
    lines = [
        "# palace completion for fish:  palace completion fish > ~/.config/fish/completions/palace.fish",
        "function __palace_after --description 'the word before the cursor is one of these'",
        "    set -l words (commandline -opc)",
        "    contains -- $words[-1] $argv",
        "end",
    ]
    asked = "(palace completion --complete {} --word=(commandline -ct) 2>/dev/null)"
    for node in nodes:
        seen = "; and ".join(f"__fish_seen_subcommand_from {word}" for word in node.path)
        here = seen or "__fish_use_subcommand"
        if node.subs and node.path:
            here += "; and not __fish_seen_subcommand_from " + " ".join(name for name, _ in node.subs)
        for name, text in node.subs:
            lines.append(f"complete -c palace -n {_quote(here)} -f -a {_quote(name)} -d {_quote(text)}")
        for option, text in node.options:
            flag = f"-l {option[2:]}" if option.startswith("--") else f"-s {option[1:]}"
            kind = node.kinds.get(option)
            value = f" -x -a {_quote(asked.format(kind))}" if kind else ""
            lines.append(
                f"complete -c palace -n {_quote(seen or '__fish_use_subcommand')} {flag}{value} -d {_quote(text)}"
            )
        if node.first and node.path:
            at = f"{seen}; and __palace_after {node.path[-1]}"
            lines.append(f"complete -c palace -n {_quote(at)} -f -a {_quote(asked.format(node.first))}")
    return "\n".join(lines) + "\n"


def completion_script(shell: str, parser: argparse.ArgumentParser) -> str:
    nodes = command_tree(parser)
    return {"bash": bash_script, "zsh": zsh_script, "fish": fish_script}[shell](nodes)
