"""VERTEX trajectory scores on hand-made trajectories whose ordering is known: the same run scores 1,
a run with one step changed less, a run about something else least; paraphrases beat unrelated steps."""

from __future__ import annotations

import json

import pytest

from sym.core.errors import UserError
from sym.core.memory.embedders import HashEmbedder, StaticEmbedder
from sym.repl.bench import load_trajectory
from sym.repl.bench.trajectory import (
    RANDOM_STEPS,
    cross_similarity,
    score_trajectory,
    steps_from_jsonl,
    steps_from_session,
)

PLAN = ["Find every ancestor of ann in the family tree.",
        "Apply the rule: an ancestor is a parent, or a parent of an ancestor.",
        "Ann is the ancestor of ben, carl and dora.",
        "Check the answer against the facts about parents."]
PARAPHRASE = ["List all the ancestors of ann in the family tree.",
              "Use the rule that a parent, or a parent of an ancestor, is an ancestor.",
              "Ben, carl and dora all have ann as an ancestor.",
              "Verify the answer with the parent facts."]
UNRELATED = ["The weather in Paris was sunny and warm all week.",
             "My cat sleeps on the windowsill every afternoon.",
             "Stock markets closed higher on Friday after the report.",
             "Bake the bread for forty minutes until golden."]
OTHER = ["Tune the guitar before the concert starts.",
         "Rivers carry sediment down to the delta.",
         "The museum opens at nine on weekdays.",
         "Swimmers warmed up beside the pool."]


@pytest.fixture(scope="module")
def hash_embedder():
    return HashEmbedder()


@pytest.fixture(scope="module")
def static_embedder():
    return StaticEmbedder()


def scores(result) -> list[float]:
    return [s.score for s in result.steps]


@pytest.mark.parametrize("which", ["hash", "static"])
def test_a_run_scored_against_itself_is_exactly_one(which, hash_embedder, static_embedder):
    embedder = hash_embedder if which == "hash" else static_embedder
    for baseline in ("random", "none"):
        result = score_trajectory(PLAN, [PLAN], embedder, baseline=baseline)
        assert result.overall == 1.0 and scores(result) == [1.0] * 4
        assert result.embedder == which and result.to_dict()["embedder"] == which


def test_one_changed_step_scores_between_the_same_run_and_an_unrelated_one(hash_embedder):
    changed = PLAN[:2] + [UNRELATED[2]] + PLAN[3:]
    same = score_trajectory(PLAN, [PLAN], hash_embedder)
    one = score_trajectory(changed, [PLAN], hash_embedder)
    none = score_trajectory(UNRELATED, [PLAN], hash_embedder)
    assert same.overall == 1.0 > one.overall > none.overall
    assert scores(one)[:2] == [1.0, 1.0] and scores(one)[3] == 1.0 and scores(one)[2] < 0.2
    assert none.overall < 0.2


@pytest.mark.parametrize("which", ["hash", "static"])
def test_a_paraphrase_scores_above_an_unrelated_run_at_every_step(which, hash_embedder, static_embedder):
    embedder = hash_embedder if which == "hash" else static_embedder
    para = score_trajectory(PARAPHRASE, [PLAN], embedder)
    unrelated = score_trajectory(UNRELATED, [PLAN], embedder)
    assert 1.0 > para.overall > unrelated.overall
    assert all(p > u for p, u in zip(scores(para), scores(unrelated)))
    assert all(s.similarity > s.random for s in para.steps)     # a paraphrase beats the random baseline


def test_static_scores_a_synonym_above_a_different_topic_where_hash_cannot_tell(hash_embedder, static_embedder):
    ref = [["The car needs new tyres and an oil change."]]
    synonym, other = ["The automobile wants fresh tires and new oil."], ["The risotto wants more stock and butter."]
    assert score_trajectory(synonym, ref, static_embedder).overall > \
        score_trajectory(other, ref, static_embedder).overall + 0.2
    assert abs(score_trajectory(synonym, ref, hash_embedder).overall
               - score_trajectory(other, ref, hash_embedder).overall) < 0.2


def test_every_step_score_lies_in_zero_one(hash_embedder, static_embedder):
    runs = [PLAN, PARAPHRASE, UNRELATED, PLAN[:2], PLAN + ["one more"], [""], [RANDOM_STEPS[0]] * 3]
    refs = [[PLAN], [PLAN, PARAPHRASE], [UNRELATED, PLAN[:3]], [[RANDOM_STEPS[0]]]]
    for embedder in (hash_embedder, static_embedder):
        for run in runs:
            for ref in refs:
                for baseline in ("random", "none"):
                    result = score_trajectory(run, ref, embedder, baseline=baseline)
                    assert all(0.0 <= s <= 1.0 for s in scores(result)), (run, ref)
                    assert 0.0 <= result.overall <= 1.0
                    assert result.overall == pytest.approx(sum(scores(result)) / len(result.steps))


def test_steps_align_by_index_and_a_missing_or_extra_step_scores_zero(hash_embedder):
    short = score_trajectory(PLAN[:2], [PLAN], hash_embedder)
    assert scores(short) == [1.0, 1.0, 0.0, 0.0] and short.overall == 0.5
    assert [s.text for s in short.steps[2:]] == [None, None] and short.steps[2].similarity is None
    long = score_trajectory(PLAN + ["An extra step."], [PLAN], hash_embedder)
    assert scores(long) == [1.0] * 4 + [0.0] and long.overall == pytest.approx(0.8)
    assert long.steps[4].text == "An extra step." and long.steps[4].references == 0
    assert (long.run_steps, long.reference_steps) == (5, [4])


def test_several_references_are_samples_of_one_distribution(hash_embedder):
    # a run equal to one of two references scores as well as the references do among themselves
    assert score_trajectory(PLAN, [PLAN, PARAPHRASE], hash_embedder).overall == 1.0
    # a shorter reference takes part only in the steps it has
    result = score_trajectory(PLAN, [PLAN[:2], PLAN], hash_embedder)
    assert [s.references for s in result.steps] == [2, 2, 1, 1] and result.overall == 1.0
    # two different valid trajectories: following either one fully is perfect, a paraphrase of one
    # is good, and a run like neither is worst
    refs = [PLAN, UNRELATED]
    plan, unrelated, para, other = (score_trajectory(run, refs, hash_embedder).overall
                                    for run in (PLAN, UNRELATED, PARAPHRASE, OTHER))
    assert plan == unrelated == 1.0 > para > 0.3 > other


def test_the_random_baseline_recentres_unrelated_steps_near_zero(hash_embedder):
    raw = score_trajectory(UNRELATED, [PLAN], hash_embedder, baseline="none")
    recentred = score_trajectory(UNRELATED, [PLAN], hash_embedder, baseline="random")
    assert all(s.random == 0.0 for s in raw.steps) and raw.overall > 0.3   # exp(-1) for orthogonal vectors
    assert recentred.overall < raw.overall - 0.2
    step = recentred.steps[0]
    assert step.score == pytest.approx(max(0.0, (step.similarity - step.random) / (step.reference - step.random)))


def test_the_cross_term_is_the_mean_kernel_over_all_pairs():
    x, y, z = (1.0, 0.0), (0.0, 1.0), (1.0, 0.0)
    assert cross_similarity([x], [x], 1.0) == 1.0
    assert cross_similarity([x], [y], 1.0) == pytest.approx(0.36787944)     # exp(-2 / 2)
    assert cross_similarity([x], [y, z], 1.0) == pytest.approx((0.36787944 + 1.0) / 2)


def test_bad_arguments_are_user_errors(hash_embedder):
    for kwargs in ({"sigma": 0}, {"sigma": float("nan")}, {"baseline": "uniform"}):
        with pytest.raises(UserError):
            score_trajectory(PLAN, [PLAN], hash_embedder, **kwargs)
    with pytest.raises(UserError, match="no steps"):
        score_trajectory([], [PLAN], hash_embedder)
    with pytest.raises(UserError, match="at least one step"):
        score_trajectory(PLAN, [[]], hash_embedder)


# -- reading trajectory files -------------------------------------------------------------

def test_jsonl_steps_take_three_shapes_and_skip_blank_lines(tmp_path):
    path = tmp_path / "run.jsonl"
    path.write_text('{"step": "one"}\n\n{"text": "two", "at": 3}\n"three"\n')
    assert load_trajectory(str(path)) == ["one", "two", "three"]


@pytest.mark.parametrize("content, where", [
    ('{"step": "one"}\n{"step": 2}\n', "run.jsonl:2: not a step"),
    ('{"step": "one"}\nnot json\n', "run.jsonl:2: not JSON"),
    ('[1, 2]\n', "run.jsonl:1: not a step"),
    ('{"other": "x"}\n', "run.jsonl:1: not a step"),
    ('\n\n', "run.jsonl has no steps"),
    ('', "run.jsonl has no steps"),
])
def test_a_malformed_step_file_is_one_line_naming_the_place(tmp_path, content, where):
    path = tmp_path / "run.jsonl"
    path.write_text(content)
    with pytest.raises(UserError) as err:
        load_trajectory(str(path))
    assert str(err.value).startswith(where) and "\n" not in str(err.value)


def test_a_missing_file_or_a_folder_is_a_user_error(tmp_path):
    with pytest.raises(UserError, match="no such file"):
        load_trajectory(str(tmp_path / "nope.jsonl"))
    with pytest.raises(UserError, match="folder"):
        load_trajectory(str(tmp_path))


def session(events: list[dict], stamp: float = 1.0, source: str = "a.sym") -> str:
    """A session log as `sym` writes it, with its timestamps and sources set by hand."""
    lines = [{"t": "header", "seq": 1, "format": 1, "workspace": "default", "settings": {}, "started": stamp}]
    for seq, event in enumerate(events, start=2):
        event = {**event, "seq": seq}
        if event["t"] == "input":
            event.update(source=f"{source}:{seq}", ts=stamp + seq)
        lines.append(event)
    return "".join(json.dumps(e) + "\n" for e in lines)


EVENTS = [
    {"t": "input", "text": "parent_of(ann, ben)."},
    {"t": "memory", "op": "add", "input": 2, "id": "f1", "kind": "fact", "text": "parent_of(ann, ben).",
     "workspace": "default"},
    {"t": "output", "input": 2, "result": {"command": "/assert", "ok": True, "kind": "added", "added": [
        {"id": "f1", "kind": "fact", "text": "parent_of(ann, ben).", "created_at": 5.0}], "duplicates": 0}},
    {"t": "input", "text": "?- parent_of(ann, ben)."},
    {"t": "output", "input": 5, "result": {"command": "/query", "ok": True, "kind": "answer",
                                           "query": "?- parent_of(ann, ben).", "truth": True}},
]


def test_a_session_step_is_an_input_and_the_values_of_its_result():
    steps = steps_from_session(json.loads(f"[{','.join(session(EVENTS).splitlines()[1:])}]"), "s.jsonl")
    assert steps == ["parent_of(ann, ben).\nadded\nfact\nparent_of(ann, ben).\n0",
                     "?- parent_of(ann, ben).\nanswer\n?- parent_of(ann, ben).\ntrue"]


def test_two_sessions_that_differ_only_in_times_and_sources_score_one(tmp_path, hash_embedder):
    a, b = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    a.write_text(session(EVENTS, stamp=1.0, source="a.sym"))
    later = [dict(e, result={**e["result"], "added": [dict(e["result"]["added"][0], created_at=99.0)]})
             if e.get("result", {}).get("kind") == "added" else e for e in EVENTS]
    b.write_text(session(later, stamp=500.0, source="elsewhere/b.sym"))
    assert a.read_text() != b.read_text()
    run, ref = load_trajectory(str(a)), load_trajectory(str(b))
    assert score_trajectory(run, [ref], hash_embedder).overall == 1.0
    wrong = [dict(e, result={**e["result"], "truth": False}) if e.get("result", {}).get("kind") == "answer" else e
             for e in EVENTS]
    c = tmp_path / "c.jsonl"
    c.write_text(session(wrong))
    assert scores(score_trajectory(load_trajectory(str(c)), [ref], hash_embedder))[1] < 1.0


def test_a_damaged_session_log_is_a_user_error(tmp_path):
    path = tmp_path / "s.jsonl"
    path.write_text(session(EVENTS) + '{"t": "input", "seq": 9, "text": 3}\n')
    with pytest.raises(UserError, match="s.jsonl:7"):
        load_trajectory(str(path))
    path.write_text(session([]))
    with pytest.raises(UserError, match="no inputs"):
        load_trajectory(str(path))


def test_steps_from_jsonl_never_evaluates_what_it_reads():
    text = '"__import__(\'os\').system(\'false\')"\n'
    assert steps_from_jsonl(text, "x.jsonl") == ["__import__('os').system('false')"]
