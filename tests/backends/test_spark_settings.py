"""`spark.checkpoint_every` is a setting (`/set` lists it) that reaches the spark engine a workspace
opens: with it a recursion writes its rounds as Parquet in the workspace and gives the same model.
The engine part is skipped with the reason where pyspark or Java 17+ is missing."""

from __future__ import annotations

from sym.core.backends import choice
from sym.core.logic.parser import parse_program
from sym.core.settings import Settings


def test_checkpoint_every_is_a_setting_the_engine_options_carry():
    settings = Settings()
    assert settings.describe()["spark_checkpoint_every"][0] == 0
    settings.set("spark.checkpoint_every", "3")
    assert choice.options_from(settings).spark_checkpoint_every == 3
    assert choice.options_from(Settings()).spark_checkpoint_every == 0


def test_a_spark_workspace_checkpoints_its_rounds_every_n_as_the_setting_says(tmp_path):
    from tests.backends.spark_env import require_spark

    require_spark()
    settings = Settings()
    settings.set("spark.checkpoint_every", "2")
    engine = choice.open_engine("spark", tmp_path / "ws", choice.options_from(settings))
    try:
        assert engine.executor.checkpoint_every == 2
        text = " ".join(f"e({i}, {i + 1})." for i in range(6)) + " tc(X, Y) :- e(X, Y). tc(X, Z) :- tc(X, Y), e(Y, Z)."
        engine.add_program([item.clause for item in parse_program(text)])
        assert engine.infer().derived == 6 * 7 // 2
        assert any((tmp_path / "ws" / "spark" / "rounds").rglob("*.parquet"))
    finally:
        choice.close(engine)
