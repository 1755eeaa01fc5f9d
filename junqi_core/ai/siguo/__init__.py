"""CPU players for Siguo's seats (four players in two teams), built apart from the
two-player `ai` modules: `belief` reads one seat's view into what it may know of the
three other armies, `player` deploys, weighs moves and chooses (Easy, Medium)."""
