# The package's own tests, run against a real sandbox ($BANKING_SANDBOX_URL) by the repository's test command.
# The plugin comes from the installed package's entry point, as in a user's suite; pytester runs inner sessions.

pytest_plugins = ["pytester"]
