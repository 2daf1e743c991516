"""INTERACTION_CREATE payloads as Discord builds them, typed from the commands the bot synced."""

from __future__ import annotations

from typing import Any

from .models import BOT_PERMISSIONS, FakeChannel, FakeUser
from .results import InteractionResult
from .world import StoredMessage, World

JSON = dict[str, Any]

# Interaction types.
APPLICATION_COMMAND, MESSAGE_COMPONENT, AUTOCOMPLETE, MODAL_SUBMIT = 2, 3, 4, 5
# Application command option types.
SUB_COMMAND, SUB_COMMAND_GROUP, STRING, INTEGER, BOOLEAN = 1, 2, 3, 4, 5
USER, CHANNEL, ROLE, MENTIONABLE, NUMBER, ATTACHMENT = 6, 7, 8, 9, 10, 11


def _id(thing: Any) -> int:
    return thing if isinstance(thing, int) else int(thing.id)


def infer_option_type(value: Any) -> int:
    """The option type for a value when the command was never synced."""
    if isinstance(value, FakeUser):
        return USER
    if isinstance(value, FakeChannel):
        return CHANNEL
    if isinstance(value, bool):
        return BOOLEAN
    if isinstance(value, int):
        return INTEGER
    if isinstance(value, float):
        return NUMBER
    return STRING


class CommandDataBuilder:
    """Builds ``data`` of a slash command (type 2) or autocomplete (type 4) interaction.

    Option types, subcommand nesting and the command id come from the synced command when there
    is one; otherwise types are inferred from the Python values and the id is generated.
    """

    def __init__(self, world: World) -> None:
        self.world = world
        self._fallback_ids: dict[str, int] = {}

    def build(
        self,
        command: str,
        subcommand: str | None,
        options: dict[str, Any],
        channel: FakeChannel,
        *,
        focused: str | None,
    ) -> tuple[JSON, str]:
        """Return ``(data, label)``; ``subcommand`` may be ``"group sub"``."""
        synced = self.world.find_command(command, channel.guild_id)
        if synced is None:
            command_id = self._fallback_ids.setdefault(command, self.world.ids.next())
        else:
            command_id = int(synced["id"])
        path = subcommand.split() if subcommand else []
        schema: list[JSON] | None = synced["options"] if synced else None
        kinds: list[int] = []
        for depth, name in enumerate(path):
            if schema is None:
                kinds.append(SUB_COMMAND if depth == len(path) - 1 else SUB_COMMAND_GROUP)
                continue
            found = next((o for o in schema if o["name"] == name and o["type"] in (1, 2)), None)
            if found is None:
                names = [o["name"] for o in schema if o["type"] in (1, 2)]
                raise ValueError(f"/{command} has no subcommand {name!r}; it has {names}")
            kinds.append(found["type"])
            schema = found.get("options") or []
        resolved: JSON = {}
        nested = self._options(options, schema, resolved, focused=focused, channel=channel)
        for name, kind in zip(reversed(path), reversed(kinds), strict=True):
            nested = [{"name": name, "type": kind, "options": nested}]
        data: JSON = {"id": str(command_id), "name": command, "type": 1, "options": nested}
        if resolved:
            data["resolved"] = resolved
        if synced is not None and synced.get("guild_id"):
            data["guild_id"] = synced["guild_id"]
        return data, "/" + " ".join([command, *path])

    def _options(
        self,
        values: dict[str, Any],
        schema: list[JSON] | None,
        resolved: JSON,
        *,
        focused: str | None,
        channel: FakeChannel,
    ) -> list[JSON]:
        by_name = {o["name"]: o for o in schema or []}
        if schema is not None:
            unknown = [name for name in values if name not in by_name]
            if unknown:
                raise ValueError(f"unknown option(s) {unknown}; the command has {list(by_name)}")
            if focused is None:
                missing = [n for n, o in by_name.items() if o.get("required") and n not in values]
                if missing:
                    raise ValueError(f"required option(s) {missing} not given")
        built = []
        for name, value in values.items():
            option_schema = by_name.get(name)
            kind = option_schema["type"] if option_schema else infer_option_type(value)
            option: JSON = {"name": name, "type": kind}
            if name == focused:
                option.update(value=str(value), focused=True)
            else:
                option["value"] = self._value(kind, value, resolved, channel)
                choices = [c["value"] for c in (option_schema or {}).get("choices") or []]
                if choices and option["value"] not in choices:
                    raise ValueError(f"option {name!r} must be one of {choices}")
            built.append(option)
        return built

    def _value(self, kind: int, value: Any, resolved: JSON, channel: FakeChannel) -> Any:
        """The option's JSON value; users, channels and roles are added to ``resolved``."""
        world = self.world
        if kind in (USER, MENTIONABLE):
            user = world.user(value)
            resolved.setdefault("users", {})[str(user.id)] = user.payload()
            guild_id = channel.guild_id
            member = None if guild_id is None else world.members_of(guild_id).get(user.id)
            if member is not None:
                resolved.setdefault("members", {})[str(user.id)] = member.payload(
                    with_user=False, with_permissions=True
                )
            return str(user.id)
        if kind == CHANNEL:
            target = world.channel(value)
            resolved.setdefault("channels", {})[str(target.id)] = target.payload(
                permissions=BOT_PERMISSIONS
            )
            return str(target.id)
        if kind == ROLE:
            role_id = _id(value)
            if role_id != channel.guild_id:
                raise ValueError("a fake guild only has the @everyone role")
            guild = world.guild_of(role_id)
            resolved.setdefault("roles", {})[str(role_id)] = guild.everyone_role()
            return str(role_id)
        if kind == ATTACHMENT:
            raise NotImplementedError("attachment options are not simulated")
        if kind == INTEGER:
            return int(value)
        if kind == NUMBER:
            return float(value)
        if kind == BOOLEAN:
            return bool(value)
        return str(value)


def interaction_payload(
    world: World,
    result: InteractionResult,
    channel: FakeChannel,
    data: JSON,
    *,
    message: StoredMessage | None,
    locale: str,
) -> JSON:
    """The INTERACTION_CREATE payload, with every field discord.py 2.7 reads."""
    payload: JSON = {
        "id": str(result.id),
        "application_id": str(world.application_id),
        "type": result.type,
        "data": data,
        "token": result.token,
        "version": 1,
        "channel_id": str(channel.id),
        "locale": locale,
        "app_permissions": str(channel.bot_permissions),
        "entitlements": [],
        "entitlement_sku_ids": [],
        "attachment_size_limit": world.upload_limit,
    }
    if channel.guild_id is not None:
        guild = world.guild_of(channel.guild_id)
        member = world.members_of(guild).get(result.user.id)
        if member is None:
            raise ValueError(f"{result.user.username} is not a member of the guild {guild.name}")
        payload.update(
            guild_id=str(guild.id),
            guild={"id": str(guild.id), "locale": "en-US", "features": []},
            guild_locale="en-US",
            member=member.payload(with_permissions=True),
            channel=channel.payload(permissions=member.permissions),
            authorizing_integration_owners={"0": str(guild.id)},
            context=0,
        )
    else:
        payload.update(
            user=result.user.payload(),
            channel=channel.payload(permissions=BOT_PERMISSIONS),
            authorizing_integration_owners={"0": "0"},
            context=1,
        )
    if message is not None:
        payload["message"] = world.message_payload(message)
    return payload


def interaction_message_fields(world: World, result: InteractionResult) -> JSON:
    """The fields Discord adds to a message created by an interaction response or follow-up."""
    user = result.user.payload()
    metadata: JSON = {
        "id": str(result.id),
        "type": result.type,
        "user": user,
        "authorizing_integration_owners": result.payload.get("authorizing_integration_owners"),
    }
    if result.component_message_id is not None:
        metadata["interacted_message_id"] = str(result.component_message_id)
    app_id = str(world.application_id)
    return {
        "webhook_id": app_id,
        "application_id": app_id,
        "interaction_metadata": metadata,
        "interaction": {
            "id": str(result.id),
            "type": result.type,
            "name": result.label.lstrip("/"),
            "user": user,
        },
    }
