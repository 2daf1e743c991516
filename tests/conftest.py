"""Shared pytest configuration: only registers the fake Discord fixtures (tests/fakediscord)."""

pytest_plugins = ["tests.fakediscord.fixtures"]
