"""`palace completion bash|zsh|fish`: a completion script for the shell, made from the argparse parser."""

from __future__ import annotations

import argparse
from dataclasses import dataclass, field

SHELLS = ("bash", "zsh", "fish")


@dataclass
class Node:
    """One command level: `palace memory` is ("memory",)."""

    path: tuple[str, ...]
    subs: list[tuple[str, str]] = field(default_factory=list)  # (subcommand or choice, help)
    options: list[tuple[str, str]] = field(default_factory=list)  # (option string, help)


def command_tree(parser: argparse.ArgumentParser, path: tuple[str, ...] = ()) -> list[Node]:
    """Every command level of the parser, the top first."""
    node = Node(path)
    nodes = [node]
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            helps = {choice.dest: choice.help or "" for choice in action._choices_actions}
            for name, sub in action.choices.items():
                if helps.get(name, "").startswith("(internal)"):
                    continue  # run by git, not by people
                node.subs.append((name, helps.get(name, "")))
                nodes += command_tree(sub, (*path, name))
        elif action.option_strings:
            node.options += [(flag, action.help or "") for flag in action.option_strings]
        elif action.choices:
            node.subs += [(str(choice), "") for choice in action.choices]
    return nodes


def _quote(text: str) -> str:
    return "'" + text.replace("'", "'\\''") + "'"


def _case_paths(nodes: list[Node]) -> str:
    return "|".join("/" + "/".join(n.path) for n in nodes if n.path)


def bash_script(nodes: list[Node]) -> str:
    cases = "\n".join(
        f'        "{"/" + "/".join(n.path) if n.path else ""}") subs={_quote(" ".join(s for s, _ in n.subs))}; '
        f"opts={_quote(' '.join(o for o, _ in n.options))} ;;"
        for n in nodes
    )
    return f"""# palace completion for bash; add to ~/.bashrc:  eval "$(palace completion bash)"
_palace_complete() {{
    local cur=${{COMP_WORDS[COMP_CWORD]}} path="" word i subs="" opts=""
    for ((i = 1; i < COMP_CWORD; i++)); do
        word=${{COMP_WORDS[i]}}
        case "$path/$word" in
            {_case_paths(nodes)}) path="$path/$word" ;;
        esac
    done
    case "$path" in
{cases}
    esac
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
        f"opts=({' '.join(_quote(o) for o, _ in n.options)}) ;;"
        for n in nodes
    )
    return f"""#compdef palace
# palace completion for zsh; add to ~/.zshrc (after compinit):  eval "$(palace completion zsh)"
_palace() {{
    local cmdpath="" word i
    local -a subs opts
    for ((i = 2; i < CURRENT; i++)); do
        word=${{words[i]}}
        case "$cmdpath/$word" in
            ({_case_paths(nodes)}) cmdpath="$cmdpath/$word" ;;
        esac
    done
    case "$cmdpath" in
{cases}
    esac
    if [[ ${{words[CURRENT]}} == -* ]]; then
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
    lines = ["# palace completion for fish:  palace completion fish > ~/.config/fish/completions/palace.fish"]
    for node in nodes:
        seen = "; and ".join(f"__fish_seen_subcommand_from {word}" for word in node.path)
        here = seen or "__fish_use_subcommand"
        if node.subs and node.path:
            here += "; and not __fish_seen_subcommand_from " + " ".join(name for name, _ in node.subs)
        for name, text in node.subs:
            lines.append(f"complete -c palace -n {_quote(here)} -f -a {_quote(name)} -d {_quote(text)}")
        for option, text in node.options:
            flag = f"-l {option[2:]}" if option.startswith("--") else f"-s {option[1:]}"
            lines.append(f"complete -c palace -n {_quote(seen or '__fish_use_subcommand')} {flag} -d {_quote(text)}")
    return "\n".join(lines) + "\n"


def completion_script(shell: str, parser: argparse.ArgumentParser) -> str:
    nodes = command_tree(parser)
    return {"bash": bash_script, "zsh": zsh_script, "fish": fish_script}[shell](nodes)
