"""Each mechanic as a plugin (`plugin.Plugin`, declared in `referee/plugins/<name>.py`): its engine
class and what the tools around the engine need of it (the bot and transcript adapter, `referee
play`'s driver, `make bench`'s workload, its scenario check keys). `installed` lists them: the one
line adding a mechanic. `games` is the composition root: it loads each spec with the mechanic its
`mechanics:` names, from that list."""
