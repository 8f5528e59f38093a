"""Tests of the rules engine (RULES.md R1–R28): plain functions, tiny builders, Hypothesis properties."""
