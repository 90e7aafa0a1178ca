"""The tokens of the Smart Game Format: a collection of game trees, each a main line of nodes."""

from __future__ import annotations

from dataclasses import dataclass

from .common import Node, SgfFormatError


def parse_sgf(text: str) -> list[list[Node]]:
    """The game trees of an SGF collection, each as its main line of nodes (a variation's
    first branch is followed, as GNU Backgammon does), each node its properties' values.

    >>> parse_sgf("(;GM[6]C[a \\\\] b];W[31])")
    [[{'GM': ['6'], 'C': ['a ] b']}, {'W': ['31']}]]
    """
    reader = _Reader(text)
    trees = []
    reader.skip_space()
    while not reader.done():
        trees.append(reader.tree())
        reader.skip_space()
    if not trees:
        raise SgfFormatError("The file holds no game: an .sgf file is one or more (;...) trees.")
    return trees


@dataclass
class _Reader:
    text: str
    at: int = 0

    def done(self) -> bool:
        return self.at >= len(self.text)

    def skip_space(self) -> None:
        while not self.done() and self.text[self.at].isspace():
            self.at += 1

    def expect(self, character: str) -> None:
        self.skip_space()
        if self.done() or self.text[self.at] != character:
            found = "the end" if self.done() else repr(self.text[self.at])
            raise SgfFormatError(
                f"Character {self.at + 1}: expected {character!r}, found {found}."
            )
        self.at += 1

    def tree(self) -> list[Node]:
        self.expect("(")
        nodes: list[Node] = []
        self.skip_space()
        while not self.done() and self.text[self.at] == ";":
            self.at += 1
            nodes.append(self.node())
            self.skip_space()
        if not nodes:
            raise SgfFormatError(f"Character {self.at + 1}: a game tree starts with a node (;).")
        branches = []
        while not self.done() and self.text[self.at] == "(":
            branches.append(self.tree())
            self.skip_space()
        self.expect(")")
        return nodes + (branches[0] if branches else [])

    def node(self) -> Node:
        properties: Node = {}
        self.skip_space()
        while not self.done() and self.text[self.at].isalpha():
            start = self.at
            while not self.done() and self.text[self.at].isalpha():
                self.at += 1
            # FF[3] allowed lower-case letters in names; only the capitals count.
            name = "".join(c for c in self.text[start : self.at] if c.isupper())
            values = []
            self.skip_space()
            while not self.done() and self.text[self.at] == "[":
                values.append(self.value())
                self.skip_space()
            if not values:
                raise SgfFormatError(f"Character {self.at + 1}: the property {name} has no value.")
            properties.setdefault(name, []).extend(values)
        return properties

    def value(self) -> str:
        self.at += 1  # the "["
        out: list[str] = []
        while True:
            if self.done():
                raise SgfFormatError("The file ends inside a property's value (a missing ']').")
            character = self.text[self.at]
            self.at += 1
            if character == "]":
                return "".join(out)
            if character == "\\" and not self.done():
                character = self.text[self.at]
                self.at += 1
                if character == "\n":
                    continue  # a soft line break
            out.append(character)

