"""The tests' shared helpers: what more than one test module uses lives here (modules never named
test_*), so that no test module imports another. tests/README.md says what each holds."""
