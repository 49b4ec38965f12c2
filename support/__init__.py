"""What the tests, the benchmarks and the scripts share: a real server process, seeded
players, the browser's settings. None of them imports from another."""
