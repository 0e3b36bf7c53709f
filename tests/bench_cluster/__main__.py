"""`python -m tests.bench_cluster`: see tests/bench_cluster/run.py."""

from tests.bench_cluster.run import main

if __name__ == "__main__":  # a spawned client process imports this module too: it must not run
    main()
