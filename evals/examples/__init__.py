"""Small real task suites built at run time: real git repositories, real tests, real patches."""
