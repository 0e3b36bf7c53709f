"""A spec's rules, compiled per checkpoint.

A checkpoint is a point in judging a move where the mechanic offers a context (its names and
their types): a move type (`draw`, `meld`, ...) before or after its effects, or a step inside a
move (`take`, `trio`, `sequence`, ...). Each rule names the checkpoints it judges (`on:`); it is
type-checked against each checkpoint's scope and compiled once into generated Python functions.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from referee.errors import SpecError, SpecErrors
from referee.i18n.catalogue import fill
from referee.model import Violation
from referee.spec import explaining
from referee.spec.expr import (
    BOOL,
    STR,
    Compiled,
    Definition,
    Origin,
    Program,
    Scope,
    Type,
    TypedExpr,
    fields_read,
    names_read,
    parse,
    words_given,
)
from referee.spec.expr import parse_type as parse_type_text
from referee.spec.expr.runtime import UNSET
from referee.spec.expr.types import TypeSyntaxError
from referee.spec.fixes import FIX_KINDS, fix_data
from referee.spec.schema import DefinitionSpec, FixSpec, GameSpec, RuleSpec, Where

# a checkpoint's rules, and (when all are of one program) the memo size they share and each
# rule's generated `when` (or None) and `require` functions (`RuleBook._broken`)
Plan = tuple[tuple["CompiledRule", ...], int, tuple[tuple["CompiledRule", Any, Any], ...] | None]
RULEBOOK_ID = re.compile(r"^[A-Z]{2,3}-\d+$")


def origin(where: Where) -> Origin:
    return Origin(
        file=where.file, line=where.line, column=where.column, path=where.path, indent=where.indent
    )


def parse_type(text: str, where: Where) -> Type:
    """A type written in a spec (`list[card]`, `{kind: str, cards: list[card]}`): the one type
    parser of the expression language, its error placed at `where`."""
    try:
        return parse_type_text(text)
    except TypeSyntaxError as err:
        raise SpecError(
            str(err), file=where.file, line=where.line, column=where.column, path=where.path
        ) from None


def build_program(
    definitions: Iterable[DefinitionSpec], checkpoint: str, scope: Scope, functions: Any = None
) -> Program:
    """The program for one checkpoint: its scope and the definitions meant for it."""
    chosen = [d for d in definitions if not d.on or checkpoint in d.on]
    return Program(
        scope=scope,
        functions=functions,
        definitions=[
            Definition(d.name, params=d.params, body=parse(d.body, origin=origin(d.where)))
            for d in chosen
        ],
    )


@dataclass
class CompiledRule:
    spec: RuleSpec
    when: Any  # compiled expression or None
    require: Any
    typed_when: Any
    typed_require: Any
    say: Mapping[str, Any] = field(default_factory=dict)  # name -> compiled expression
    typed_say: Mapping[str, TypedExpr] = field(default_factory=dict)
    fix: Mapping[str, Any] = field(default_factory=dict)  # the fix's value name -> compiled
    typed_fix: Mapping[str, TypedExpr] = field(default_factory=dict)

    @cached_property
    def reads(self) -> frozenset[str]:
        """The context names its condition reads (through the definitions it calls)."""
        return names_read(t for t in (self.typed_when, self.typed_require) if t is not None)

    @cached_property
    def fields_read(self) -> dict[str, frozenset[str] | None]:
        """Of each name its condition reads, the record fields it reads (None: it reads it
        whole): an explanation shows `options.joker_rule`, not every option."""
        return fields_read(t for t in (self.typed_when, self.typed_require) if t is not None)

    @cached_property
    def reads_worded(self) -> frozenset[str]:
        """The context names judging it reads, and wording it broken: its `say`, its fix."""
        return self.reads | names_read([*self.typed_say.values(), *self.typed_fix.values()])

    def broken(self, env: Mapping[str, Any]) -> bool:
        if self.when is not None and not self.when(env):
            return False
        return not self.require(env)

    def violation(
        self, cards: Iterable[str] = (), env: Mapping[str, Any] | None = None
    ) -> Violation:
        cites = tuple(s for s in self.spec.source if RULEBOOK_ID.match(s) and s != self.spec.id)
        said = (
            {name: str(fn(env)) for name, fn in self.say.items()}
            if self.say and env is not None
            else {}
        )  # "buy for 4th card must be between 100 and 175"
        return Violation(
            rule=self.spec.id,
            message=fill(self.spec.sentence(), said),
            cites=cites,
            cards=tuple(cards),
            said=said,
            fix=self.mend(env),
        )

    def mend(self, env: Mapping[str, Any] | None) -> dict[str, Any]:
        """The rule's fix for this context (`fix:`), empty when it has none or offers no way out."""
        if not self.fix or env is None or self.spec.fix is None:
            return {}
        return fix_data(self.spec.fix.kind, {name: fn(env) for name, fn in self.fix.items()})

    def __repr__(self) -> str:
        where = self.spec.where
        return f"<rule {self.spec.id} at {where.file}:{where.line}>"


class RuleBook:
    """Every rule of a spec, compiled for each checkpoint and time (`before` / `after`)."""

    def __init__(self, spec: GameSpec, scopes: Mapping[str, Scope], functions: Any = None) -> None:
        self.spec = spec
        self.programs: dict[str, Program] = {}
        self.rules: dict[tuple[str, str], list[CompiledRule]] = {}
        self._reads: dict[tuple[str, str], frozenset[str]] = {}  # `reads_at`, once asked
        # per checkpoint and time: how `_broken` judges its rules, once asked
        self._plans: dict[tuple[str, str], Plan] = {}
        errors: list[SpecError] = []
        broken: set[str] = set()  # checkpoints whose definitions failed: their rules wait
        for name, scope in scopes.items():
            try:
                self.programs[name] = build_program(spec.definitions, name, scope, functions)
            except (SpecErrors, SpecError) as exc:
                errors.extend(_unpack(exc))
                broken.add(name)
        self.broken = broken
        errors.extend(self._unknown_in_groups())
        for rule in spec.rules:
            errors.extend(self._add(rule))
        if errors:
            raise SpecErrors(_unique(errors))

    def _unknown_in_groups(self) -> list[SpecError]:
        """A group's member that is no checkpoint (reported even if no rule uses the group)."""
        known = {*self.programs, *self.broken}
        errors = []
        for group, members in self.spec.groups.items():
            for member in members:
                if member not in known:
                    errors.append(
                        self.spec.located.error(
                            ("groups", group),
                            (
                                f"group `{group}`: unknown checkpoint `{member}`: expected one of "
                                + ", ".join(f"`{c}`" for c in sorted(known))
                            ),
                        )
                    )
        return errors

    def _add(self, rule: RuleSpec) -> list[SpecError]:
        errors: list[SpecError] = []
        for checkpoint in rule.on:
            if checkpoint in self.broken:
                continue  # its definitions are already reported
            program = self.programs.get(checkpoint)
            if program is None:
                known = ", ".join(f"`{c}`" for c in sorted({*self.programs, *self.broken}))
                at = rule.on_where or rule.where
                errors.append(
                    SpecError(
                        f"rule `{rule.id}`: unknown checkpoint `{checkpoint}`: "
                        f"expected one of {known}",
                        file=at.file,
                        line=at.line,
                        column=at.column,
                        path=at.path,
                    )
                )
                continue
            try:
                compiled = self._compile(rule, program)
            except (SpecErrors, SpecError) as exc:
                errors.extend(_unpack(exc))
                continue
            self.rules.setdefault((checkpoint, rule.at), []).append(compiled)
            errors.extend(self._unworded(rule, compiled.typed_say))
        return _unique(errors)

    def _unworded(self, rule: RuleSpec, typed_say: Mapping[str, TypedExpr]) -> list[SpecError]:
        """A word the rule's sentence may show (a text `say` gives) that `words:` does not give
        in each language of the spec: players reading another language would see it in English."""
        others = [language for language in self.spec.languages if language != "en"]
        errors = []
        for name, typed in typed_say.items():
            for word in sorted(words_given(typed) if others and typed.type == STR else ()):
                missing = [x for x in others if x not in self.spec.words.get(word, {})]
                if missing:
                    where = rule.say[name][1]
                    errors.append(
                        SpecError(
                            f"rule `{rule.id}`: `{{{name}}}` may show the word `{word}`: give it in "
                            f"`{missing[0]}` under `words:` (`{word}: {{{missing[0]}: ...}}`)",
                            file=where.file,
                            line=where.line,
                            column=where.column,
                            path=where.path,
                        )
                    )
        return errors

    @staticmethod
    def _compile(rule: RuleSpec, program: Program) -> CompiledRule:
        typed_when = None
        if rule.when is not None:
            typed_when = program.check(
                parse(rule.when, origin=origin(rule.when_where or rule.where)), expected=BOOL
            )
        typed_require = program.check(parse(rule.require, origin=origin(rule.where)), expected=BOOL)
        typed_say = {
            name: program.check(parse(text, origin=origin(where)))
            for name, (text, where) in rule.say.items()
        }
        say = {name: program.compile(typed) for name, typed in typed_say.items()}
        typed_fix = _typed_fix(rule.fix, program)
        return CompiledRule(
            rule,
            program.compile(typed_when) if typed_when is not None else None,
            program.compile(typed_require),
            typed_when,
            typed_require,
            say,
            typed_say,
            {name: program.compile(typed) for name, typed in typed_fix.items()},
            typed_fix,
        )

    def judge(
        self,
        checkpoint: str,
        env: Mapping[str, Any],
        at: str = "before",
        cards: Iterable[str] | Callable[[], Iterable[str]] = (),
    ) -> list[Violation]:
        """The violations of the checkpoint's rules in `env`, each showing `cards` (or what
        the function `cards` gives, asked only when a rule is broken)."""
        rules = self.rules.get((checkpoint, at), ())
        record = explaining.open_record()
        if record is not None:  # an explanation asked for (`referee.spec.explaining`)
            record.add(checkpoint, at, rules, env)
        broken = self._broken((checkpoint, at), env)
        if not broken:
            return []
        shown = tuple(cards() if callable(cards) else cards)
        return [rule.violation(shown, env) for rule in broken]

    def _broken(self, key: tuple[str, str], env: Mapping[str, Any]) -> list[CompiledRule]:
        """The rules of a checkpoint broken in `env`, in order. Where every rule there is of
        one program, their generated functions are called in one loop sharing one memo: a
        definition several rules read (`anchor`, `seq_base`) is computed once, not once a rule.
        Should the generated code fail, the rules are judged one by one as ever (the
        interpreter then raises the located error): expressions are pure."""
        rules, memo_size, functions = self._plan_of(key)
        if functions is not None:
            memo = [UNSET] * memo_size
            try:
                return [
                    rule
                    for rule, when, require in functions
                    if (when is None or when(env, memo)) and not require(env, memo)
                ]
            except Exception:  # noqa: BLE001 - judged again rule by rule, just below
                pass
        return [rule for rule in rules if rule.broken(env)]

    def _plan_of(self, key: tuple[str, str]) -> Plan:
        plan = self._plans.get(key)
        if plan is None:
            plan = self._plans[key] = self._plan(key)
        return plan

    def _plan(self, key: tuple[str, str]) -> Plan:
        """How `_broken` judges a checkpoint: its rules, and their generated functions with
        the memo size they share (None where they are not all of one program)."""
        rules = tuple(self.rules.get(key, ()))
        parts = [part for rule in rules for part in (rule.when, rule.require) if part is not None]
        if not parts or not all(isinstance(part, Compiled) for part in parts):
            return rules, 0, None
        first = parts[0]
        if not all(first.shares(part) for part in parts):
            return rules, 0, None
        functions = tuple(
            (rule, None if rule.when is None else rule.when.fn, rule.require.fn) for rule in rules
        )
        return rules, first.memo_size, functions

    def reads_at(self, checkpoint: str, at: str = "before") -> frozenset[str]:
        """The context names judging the checkpoint's rules reads, and wording the broken ones:
        a context built of these alone is judged as the whole one is."""
        key = (checkpoint, at)
        found = self._reads.get(key)
        if found is None:
            rules = self.rules.get(key, ())
            found = self._reads[key] = frozenset().union(*(r.reads_worded for r in rules))
        return found

    def accepts(self, checkpoint: str, env: Mapping[str, Any], at: str = "before") -> bool:
        """Does every rule of the checkpoint hold? (`judge` without wording the violations.)"""
        rules, memo_size, functions = self._plan_of((checkpoint, at))
        if functions is not None:
            memo = [UNSET] * memo_size
            try:
                for _, when, require in functions:  # the first rule broken settles it
                    if (when is None or when(env, memo)) and not require(env, memo):
                        return False
                return True
            except Exception:  # noqa: BLE001 - judged again rule by rule, just below
                pass
        return not any(rule.broken(env) for rule in rules)

    def compile_expression(self, checkpoint: str, text: str, where: Where, expected: Type) -> Any:
        program = self.programs[checkpoint]
        return program.compile(program.check(parse(text, origin=origin(where)), expected=expected))

    def check_expression(self, checkpoint: str, text: str, where: Where, expected: Type) -> Any:
        program = self.programs[checkpoint]
        return program.check(parse(text, origin=origin(where)), expected=expected)

    def rules_at(self, checkpoint: str, at: str = "before") -> list[CompiledRule]:
        return list(self.rules.get((checkpoint, at), ()))


def _typed_fix(fix: FixSpec | None, program: Program) -> dict[str, TypedExpr]:
    """Each value of the rule's fix, checked against the type its kind gives it."""
    if fix is None:
        return {}
    types = FIX_KINDS[fix.kind].values
    return {
        name: program.check(parse(text, origin=origin(where)), expected=types[name])
        for name, (text, where) in fix.values.items()
    }


def _unpack(exc: SpecError | SpecErrors) -> list[SpecError]:
    return list(exc.errors) if isinstance(exc, SpecErrors) else [exc]


def _unique(errors: list[SpecError]) -> list[SpecError]:
    seen, result = set(), []
    for error in errors:
        if str(error) not in seen:
            seen.add(str(error))
            result.append(error)
    return result


@dataclass(frozen=True)
class SpecExpression:
    """A value the mechanic computes from a spec expression (not a rule): proofs reason about it.

    `typed` is what z3 encodes (its program holds the context's names), `compiled` what the
    engine runs: both from the same text, so a proof speaks of the engine's own computation.
    """

    path: str  # where the spec states it, e.g. `scoring.hand_points`
    context: str  # the context it reads: a checkpoint (`scoring`) or its own (`reentry`)
    typed: TypedExpr
    compiled: Compiled

    def __call__(self, env: Mapping[str, Any]) -> Any:
        return self.compiled(env)

    @cached_property
    def reads(self) -> frozenset[str]:
        """The context names it reads (through the definitions it calls)."""
        return names_read([self.typed])
