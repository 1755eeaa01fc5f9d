"""Four-player Siguo (docs/rules.md, "Siguo"): its board, its position and its rules."""
