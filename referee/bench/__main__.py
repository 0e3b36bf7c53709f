"""`python -m referee.bench` (`make bench`): see `referee.bench`."""

from referee.bench import main

raise SystemExit(main())
