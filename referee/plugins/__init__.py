"""Each mechanic as a plugin (`plugin.Plugin`, declared in `referee/mechanics/<name>/plugin.py`):
its engine class and what the tools around the engine need of it (the bot and transcript adapter,
`referee play`'s driver, `make bench`'s workload, its scenario check keys). `installed` lists
them: the one line adding a mechanic."""
