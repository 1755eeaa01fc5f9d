"""The behaviour model's counts (`behaviour.BehaviourModel`); rebuilt by
`python3 bench/behaviour_corpus.py learn` from a seeded corpus of games."""

COUNTS: dict = {}
POWER = 1.0
