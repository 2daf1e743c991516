"""How Alembic runs the bot's history: on the connection the bot hands it (in the
configuration's attributes, see :func:`bot.storage.migrations.alembic_config`), inside
the bot's own transaction, which holds the migrations' lock."""

from alembic import context

from bot.storage.migrations import VERSION_TABLE

context.configure(connection=context.config.attributes["connection"], version_table=VERSION_TABLE)
context.run_migrations()
