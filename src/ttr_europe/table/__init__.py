"""The table: a game between persons and bots with its event log (``match``) and the game at a
terminal (``terminal``); the browser's table (``ttr_europe.web``) and the command line sit above
it (docs/play.md)."""
