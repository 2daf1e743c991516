"""The REST half of the fake: Discord's HTTP API under /api/v10, answering with Discord's errors."""

from __future__ import annotations

import asyncio
import json
import logging
import re
import traceback
from collections.abc import Awaitable, Callable, Sequence
from typing import Any

from aiohttp import BodyPartReader, web

from .faults import Faults
from .gateway import Gateway
from .limits import FormErrors, check_choices, check_commands, check_message, check_modal
from .models import GUILD_TEXT, PERMISSION, PRIVATE_THREAD, FakeChannel, FakeGuild
from .payloads import (
    APPLICATION_COMMAND,
    AUTOCOMPLETE,
    MESSAGE_COMPONENT,
    MODAL_SUBMIT,
    interaction_message_fields,
)
from .results import EPHEMERAL, LOADING, InteractionResult, RecordedRequest, Violation
from .world import HAS_THREAD, StoredMessage, Upload, World

JSON = dict[str, Any]
Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]
log = logging.getLogger(__name__)

API_PREFIX = "/api/v10"
WEBHOOK_TOKEN_LIFETIME = 15 * 60.0
# Callback types each interaction type accepts (1 PONG is for HTTP-endpoint bots only).
_ALLOWED_CALLBACKS = {
    APPLICATION_COMMAND: {4, 5, 9},
    MESSAGE_COMPONENT: {4, 5, 6, 7, 9},
    AUTOCOMPLETE: {8},
    MODAL_SUBMIT: {4, 5, 6, 7},
}
# Message types.
DEFAULT_MESSAGE, REPLY, CHAT_INPUT_COMMAND = 0, 19, 20
_FILE_FIELD = re.compile(r"files\[(\d+)\]|file(\d*)")


class ApiError(Exception):
    """An error answer in Discord's shape; with ``kind`` it is also recorded as a violation."""

    def __init__(
        self,
        status: int,
        code: int,
        message: str,
        *,
        detail: str | None = None,
        errors: JSON | None = None,
        kind: str | None = None,
        interaction_id: int | None = None,
    ) -> None:
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message
        self.detail = detail
        self.errors = errors
        self.kind = kind
        self.interaction_id = interaction_id

    @classmethod
    def invalid_form(cls, errors: FormErrors, interaction_id: int | None = None) -> ApiError:
        return cls(
            400,
            50035,
            "Invalid Form Body",
            detail=errors.summary(),
            errors=errors.nested(),
            kind="invalid_form_body",
            interaction_id=interaction_id,
        )

    def describe(self) -> str:
        return self.message if self.detail is None else f"{self.message}: {self.detail}"

    def body(self) -> JSON:
        body: JSON = {"message": self.message, "code": self.code}
        if self.errors is not None:
            body["errors"] = self.errors
        return body


def json_response(data: Any, status: int = 200) -> web.Response:
    """JSON with ``Content-Type: application/json`` exactly: discord.py compares the header."""
    return web.Response(
        body=json.dumps(data).encode(), status=status, headers={"Content-Type": "application/json"}
    )


def no_content() -> web.Response:
    return web.Response(status=204)


def _snowflake(request: web.Request, name: str) -> int:
    value = request.match_info[name]
    if not value.isdigit():
        raise ApiError(404, 0, "404: Not Found")
    return int(value)


def _is_empty(body: JSON, uploads: Sequence[Upload]) -> bool:
    keys = ("content", "embeds", "components", "sticker_ids", "poll", "attachments")
    return not uploads and not any(body.get(key) for key in keys)


def _now() -> float:
    return asyncio.get_running_loop().time()


class RestApi:
    """Route handlers over a :class:`World`; :meth:`install` adds them to an aiohttp app."""

    def __init__(self, world: World, gateway: Gateway, *, token: str) -> None:
        self.world = world
        self.gateway = gateway
        self.token = token
        self.faults = Faults()

    def install(self, app: web.Application) -> None:
        """Add the API routes, the attachment CDN and a logging catch-all for unknown routes."""
        app.middlewares.append(self._middleware)
        for method, path, handler in self._routes():
            app.router.add_route(method, API_PREFIX + path, handler)
        app.router.add_get("/attachments/{channel_id}/{attachment_id}/{filename}", self._cdn)

    def install_catch_all(self, app: web.Application) -> None:
        """Must be added last: everything no other route matched."""
        app.router.add_route("*", "/{tail:.*}", self._unknown_route)

    def _routes(self) -> list[tuple[str, str, Handler]]:
        app = "/applications/{application_id}"
        guild_commands = app + "/guilds/{guild_id}/commands"
        webhook_message = "/webhooks/{application_id}/{token}/messages/{message_id}"
        message = "/channels/{channel_id}/messages/{message_id}"
        return [
            ("GET", "/users/@me", self._get_me),
            ("POST", "/users/@me/channels", self._create_dm),
            ("GET", "/users/{user_id}", self._get_user),
            ("GET", "/oauth2/applications/@me", self._get_application),
            ("GET", "/applications/@me", self._get_application),
            ("GET", "/gateway", self._get_gateway),
            ("GET", "/gateway/bot", self._get_gateway_bot),
            ("GET", app + "/commands", self._get_commands),
            ("PUT", app + "/commands", self._put_commands),
            ("POST", app + "/commands", self._post_command),
            ("GET", app + "/commands/{command_id}", self._get_command),
            ("DELETE", app + "/commands/{command_id}", self._delete_command),
            ("GET", guild_commands, self._get_commands),
            ("PUT", guild_commands, self._put_commands),
            ("POST", guild_commands, self._post_command),
            ("GET", guild_commands + "/{command_id}", self._get_command),
            ("DELETE", guild_commands + "/{command_id}", self._delete_command),
            ("POST", "/interactions/{interaction_id}/{token}/callback", self._callback),
            ("POST", "/webhooks/{application_id}/{token}", self._followup),
            ("GET", webhook_message, self._get_webhook_message),
            ("PATCH", webhook_message, self._edit_webhook_message),
            ("DELETE", webhook_message, self._delete_webhook_message),
            ("GET", "/channels/{channel_id}", self._get_channel),
            ("PATCH", "/channels/{channel_id}", self._edit_channel),
            ("GET", "/channels/{channel_id}/messages", self._get_messages),
            ("POST", "/channels/{channel_id}/messages", self._create_message),
            ("GET", message, self._get_message),
            ("PATCH", message, self._edit_message),
            ("DELETE", message, self._delete_message),
            ("POST", message + "/threads", self._thread_from_message),
            ("POST", "/channels/{channel_id}/threads", self._create_thread),
            ("PUT", "/channels/{channel_id}/thread-members/{user_id}", self._thread_member),
            ("DELETE", "/channels/{channel_id}/thread-members/{user_id}", self._thread_member),
            ("POST", "/channels/{channel_id}/typing", self._typing),
            ("GET", "/guilds/{guild_id}", self._get_guild),
            ("GET", "/guilds/{guild_id}/channels", self._get_guild_channels),
            ("GET", "/guilds/{guild_id}/members", self._get_members),
            ("GET", "/guilds/{guild_id}/members/{user_id}", self._get_member),
        ]

    # -- plumbing ---------------------------------------------------------------------------

    @web.middleware
    async def _middleware(self, request: web.Request, handler: Handler) -> web.StreamResponse:
        """Auth, Discord-shaped errors, violations, the request log; never a 5xx (clients retry)."""
        route = f"{request.method} {self._route_name(request)}"
        try:
            if self._needs_auth(request.path) and (
                request.headers.get("Authorization") != f"Bot {self.token}"
            ):
                raise ApiError(401, 0, "401: Unauthorized", kind="unauthorized")
            response = await self._faulty(request) or await handler(request)
        except ApiError as error:
            if error.kind is not None:
                self.world.record_violation(
                    Violation(
                        error.kind,
                        error.describe(),
                        status=error.status,
                        code=error.code,
                        route=route,
                        errors=error.errors,
                        interaction_id=error.interaction_id,
                    )
                )
            response = json_response(error.body(), error.status)
        except Exception as error:
            log.exception("fake Discord failed on %s", route)
            self.world.server_errors.append(f"{route}: {traceback.format_exc()}")
            response = json_response({"message": f"fake Discord error: {error!r}", "code": 0}, 400)
        self.world.requests.append(RecordedRequest(request.method, request.path, response.status))
        self.world.changed()
        return response

    async def _faulty(self, request: web.Request) -> web.Response | None:
        """The answer of a fault the test switched on for this request (see
        :mod:`.faults`), after its delay; ``None``: handle the request as usual."""
        path = request.path.removeprefix(API_PREFIX)
        fault = self.faults.match(request.method, path)
        if fault is None:
            return None
        if fault.delay:
            await asyncio.sleep(fault.delay)
        if fault.status is None:
            return None
        status, body, headers = fault.answer()
        response = json_response(body, status)
        response.headers.update(headers)
        return response

    @staticmethod
    def _route_name(request: web.Request) -> str:
        route = request.match_info.route
        resource = route.resource if route is not None else None
        return resource.canonical if resource is not None else request.path

    @staticmethod
    def _needs_auth(path: str) -> bool:
        if not path.startswith(API_PREFIX + "/"):
            return False
        return not path[len(API_PREFIX) :].startswith(("/interactions/", "/webhooks/"))

    async def _read_body(self, request: web.Request) -> tuple[JSON, list[Upload]]:
        """JSON body, or multipart ``payload_json`` plus ``files[n]``; enforces the upload limit."""
        uploads: dict[int, Upload] = {}
        body: JSON = {}
        if request.content_type.startswith("multipart/"):
            reader = await request.multipart()
            while (part := await reader.next()) is not None:
                if not isinstance(part, BodyPartReader) or part.name is None:
                    continue
                if part.name == "payload_json":
                    body = json.loads(await part.text())
                    continue
                match = _FILE_FIELD.fullmatch(part.name)
                if match is None:
                    continue
                index = int(match.group(1) or match.group(2) or 0)
                data = bytes(await part.read(decode=False))
                uploads[index] = Upload(
                    part.filename or f"file{index}", data, part.headers.get("Content-Type")
                )
        else:
            text = await request.text()
            if text:
                body = json.loads(text)
        total = sum(len(upload.data) for upload in uploads.values())
        if total > self.world.upload_limit:
            raise ApiError(
                413,
                40005,
                "Request entity too large",
                detail=f"{total} bytes uploaded, the limit is {self.world.upload_limit}",
                kind="payload_too_large",
            )
        return body, [uploads[i] for i in sorted(uploads)]

    @staticmethod
    def _validate_message(
        body: JSON,
        uploads: Sequence[Upload],
        *,
        creating: bool,
        path: tuple[str, ...] = (),
        interaction_id: int | None = None,
    ) -> None:
        errors = FormErrors()
        check_message(body, errors, path)
        if errors:
            raise ApiError.invalid_form(errors, interaction_id)
        if creating and _is_empty(body, uploads):
            raise ApiError(
                400,
                50006,
                "Cannot send an empty message",
                kind="empty_message",
                interaction_id=interaction_id,
            )

    def _channel(self, request: web.Request) -> FakeChannel:
        channel = self.world.channels.get(_snowflake(request, "channel_id"))
        if channel is None:
            raise ApiError(404, 10003, "Unknown Channel")
        return channel

    def _channel_message(self, request: web.Request, channel: FakeChannel) -> StoredMessage:
        stored = self.world.find_stored(_snowflake(request, "message_id"))
        if stored is None or stored.channel_id != channel.id or stored.ephemeral:
            raise ApiError(404, 10008, "Unknown Message")
        return stored

    def _check_application(self, request: web.Request) -> None:
        if _snowflake(request, "application_id") != self.world.application_id:
            raise ApiError(404, 10002, "Unknown Application")

    def _check_guild(self, request: web.Request) -> FakeGuild:
        guild = self.world.guilds.get(_snowflake(request, "guild_id"))
        if guild is None:
            raise ApiError(404, 10004, "Unknown Guild")
        return guild

    # -- login, users, guild -----------------------------------------------------------------

    async def _unknown_route(self, request: web.Request) -> web.Response:
        self.world.unknown_routes.append(f"{request.method} {request.path}")
        log.warning("fake Discord: unknown route %s %s", request.method, request.path)
        return json_response({"message": "404: Not Found", "code": 0}, 404)

    async def _get_me(self, request: web.Request) -> web.Response:
        me = self.world.bot_user.payload()
        me.update(verified=True, mfa_enabled=False, flags=0, locale="en-US", email=None)
        return json_response(me)

    async def _get_user(self, request: web.Request) -> web.Response:
        user = self.world.users.get(_snowflake(request, "user_id"))
        if user is None:
            raise ApiError(404, 10013, "Unknown User")
        return json_response(user.payload())

    async def _create_dm(self, request: web.Request) -> web.Response:
        body, _ = await self._read_body(request)
        user = self.world.users.get(int(body.get("recipient_id") or 0))
        if user is None:
            raise ApiError(404, 10013, "Unknown User")
        return json_response(self.world.dm_channel(user).payload())

    async def _get_application(self, request: web.Request) -> web.Response:
        bot = self.world.bot_user
        return json_response(
            {
                "id": str(self.world.application_id),
                "name": bot.username,
                "icon": None,
                "description": "",
                "summary": "",
                "rpc_origins": [],
                "bot_public": True,
                "bot_require_code_grant": False,
                "bot": bot.payload(),
                "owner": self.world.owner.payload(),
                "team": None,
                "verify_key": "0" * 64,
                "flags": 0,
                "tags": [],
                "redirect_uris": [],
                "interactions_endpoint_url": None,
                "approximate_guild_count": len(self.world.guilds),
            }
        )

    async def _get_gateway(self, request: web.Request) -> web.Response:
        return json_response({"url": self.gateway.url})

    async def _get_gateway_bot(self, request: web.Request) -> web.Response:
        return json_response(
            {
                "url": self.gateway.url,
                "shards": self.gateway.shard_count,
                "session_start_limit": {
                    "total": 1000,
                    "remaining": 1000 - len(self.gateway.identify_payloads),
                    "reset_after": 86_400_000,
                    "max_concurrency": 1,
                },
            }
        )

    async def _get_guild(self, request: web.Request) -> web.Response:
        guild = self._check_guild(request)
        data = guild.payload()
        count = len(self.world.members_of(guild))
        data.update(approximate_member_count=count, approximate_presence_count=count)
        return json_response(data)

    async def _get_guild_channels(self, request: web.Request) -> web.Response:
        guild = self._check_guild(request)
        return json_response([c.payload() for c in self.world.guild_channels(guild)])

    async def _get_members(self, request: web.Request) -> web.Response:
        guild = self._check_guild(request)
        limit = int(request.query.get("limit", "1"))
        after = int(request.query.get("after", "0"))
        members = sorted(self.world.members_of(guild).values(), key=lambda m: m.user.id)
        return json_response([m.payload() for m in members if m.user.id > after][:limit])

    async def _get_member(self, request: web.Request) -> web.Response:
        guild = self._check_guild(request)
        member = self.world.members_of(guild).get(_snowflake(request, "user_id"))
        if member is None:
            raise ApiError(404, 10007, "Unknown Member")
        return json_response(member.payload())

    async def _cdn(self, request: web.Request) -> web.Response:
        try:
            data = self.world.attachment_bytes(_snowflake(request, "attachment_id"))
        except KeyError:
            raise ApiError(404, 0, "404: Not Found") from None
        return web.Response(body=data, content_type="application/octet-stream")

    # -- application commands -----------------------------------------------------------------

    def _command_scope(self, request: web.Request) -> int | None:
        self._check_application(request)
        if "guild_id" not in request.match_info:
            return None
        return self._check_guild(request).id

    async def _get_commands(self, request: web.Request) -> web.Response:
        return json_response(self.world.commands.get(self._command_scope(request), []))

    async def _put_commands(self, request: web.Request) -> web.Response:
        scope = self._command_scope(request)
        body = json.loads(await request.text() or "[]")
        errors = FormErrors()
        check_commands(body, errors)
        if errors:
            raise ApiError.invalid_form(errors)
        return json_response(self.world.put_commands(scope, body))

    async def _post_command(self, request: web.Request) -> web.Response:
        scope = self._command_scope(request)
        body, _ = await self._read_body(request)
        errors = FormErrors()
        check_commands([body], errors)
        if errors:
            raise ApiError.invalid_form(errors)
        return json_response(self.world.upsert_command(scope, body), 201)

    async def _get_command(self, request: web.Request) -> web.Response:
        scope = self._command_scope(request)
        command_id = str(_snowflake(request, "command_id"))
        for command in self.world.commands.get(scope, []):
            if command["id"] == command_id:
                return json_response(command)
        raise ApiError(404, 10063, "Unknown application command")

    async def _delete_command(self, request: web.Request) -> web.Response:
        scope = self._command_scope(request)
        if not self.world.delete_command(scope, _snowflake(request, "command_id")):
            raise ApiError(404, 10063, "Unknown application command")
        return no_content()

    # -- interaction callback and webhooks ----------------------------------------------------

    async def _callback(self, request: web.Request) -> web.Response:
        result = self.world.interactions.get(_snowflake(request, "interaction_id"))
        if result is None or result.token != request.match_info["token"]:
            raise ApiError(404, 10062, "Unknown interaction", kind="unknown_interaction")
        body, uploads = await self._read_body(request)
        if result.acknowledged:
            raise ApiError(
                400,
                40060,
                "Interaction has already been acknowledged.",
                kind="double_ack",
                interaction_id=result.id,
            )
        if result.expired or _now() - result.dispatched_at > self.world.ack_deadline:
            self.world.expire(result)  # records the violation once
            raise ApiError(404, 10062, "Unknown interaction")
        callback_type = int(body.get("type") or 0)
        data: JSON = body.get("data") or {}
        errors = FormErrors()
        if callback_type not in _ALLOWED_CALLBACKS[result.type]:
            errors.add(
                ("type",),
                "INTERACTION_RESPONSE_TYPE_INVALID",
                f"Callback type {callback_type} is not valid for interaction type {result.type}",
            )
        elif callback_type in (4, 7):
            check_message(data, errors, ("data",))
        elif callback_type == 8:
            check_choices(data.get("choices"), errors, ("data", "choices"))
        elif callback_type == 9:
            check_modal(data, errors, ("data",))
        if errors:
            raise ApiError.invalid_form(errors, result.id)
        if callback_type == 4 and _is_empty(data, uploads):
            raise ApiError(
                400,
                50006,
                "Cannot send an empty message",
                kind="empty_message",
                interaction_id=result.id,
            )
        message = self._apply_callback(result, callback_type, data, uploads)
        result.response_type = callback_type
        result.response_data = data
        result.acknowledged_at = _now()
        ephemeral = message.ephemeral if message else bool(int(data.get("flags") or 0) & EPHEMERAL)
        interaction: JSON = {
            "id": str(result.id),
            "type": result.type,
            "activity_instance_id": None,
            "response_message_id": None if message is None else str(message.id),
            "response_message_loading": callback_type == 5,
            "response_message_ephemeral": ephemeral,
        }
        resource: JSON = {"type": callback_type}
        if message is not None and callback_type in (4, 5, 7):
            resource["message"] = self.world.message_payload(message)
        return json_response({"interaction": interaction, "resource": resource})

    def _apply_callback(
        self, result: InteractionResult, callback_type: int, data: JSON, uploads: list[Upload]
    ) -> StoredMessage | None:
        """Create or edit the message a callback implies; return the original response message."""
        if callback_type in (4, 5):
            extra = interaction_message_fields(self.world, result)
            if callback_type == 5:  # a "thinking…" placeholder, ephemeral if asked
                extra["flags"] = LOADING | (int(data.get("flags") or 0) & EPHEMERAL)
                data = {}
            stored = self.world.create_message(
                result.channel_id,
                self.world.bot_user,
                data,
                uploads,
                message_type=CHAT_INPUT_COMMAND if result.type == APPLICATION_COMMAND else REPLY,
                extra=extra,
            )
            result.original_message_id = stored.id
            return stored
        if callback_type in (6, 7) and result.component_message_id is not None:
            result.original_message_id = result.component_message_id
            stored = self.world.stored(result.component_message_id)
            if callback_type == 7:
                self.world.edit_message(stored, data, uploads)
            return stored
        if callback_type == 8:
            result.choices = list(data.get("choices") or [])
        elif callback_type == 9:
            result.modal = data
        return None

    def _webhook_interaction(self, request: web.Request) -> InteractionResult:
        self._check_application(request)
        result = self.world.interaction_by_token(request.match_info["token"])
        if result is None:
            raise ApiError(404, 10015, "Unknown Webhook")
        if _now() - result.dispatched_at > WEBHOOK_TOKEN_LIFETIME:
            raise ApiError(401, 50027, "Invalid Webhook Token", kind="webhook_token_expired")
        if not result.acknowledged:
            raise ApiError(
                404,
                10015,
                "Unknown Webhook",
                detail="the interaction is not acknowledged yet",
                kind="webhook_before_ack",
                interaction_id=result.id,
            )
        return result

    def _webhook_message(self, request: web.Request, result: InteractionResult) -> StoredMessage:
        raw = request.match_info["message_id"]
        if raw == "@original":
            message_id = result.original_message_id
        else:
            message_id = int(raw) if raw.isdigit() else None
        stored = self.world.find_stored(message_id)
        if stored is None or stored.id not in {result.original_message_id, *result.followup_ids}:
            raise ApiError(404, 10008, "Unknown Message")
        return stored

    async def _followup(self, request: web.Request) -> web.Response:
        result = self._webhook_interaction(request)
        body, uploads = await self._read_body(request)
        self._validate_message(body, uploads, creating=True, interaction_id=result.id)
        original = self.world.find_stored(result.original_message_id)
        if original is not None and original.flags & LOADING:
            # The first follow-up after a deferred (type 5) response replaces "thinking…".
            resolving = {key: value for key, value in body.items() if key != "flags"}
            self.world.edit_message(original, resolving, uploads)
            stored = original
        else:
            stored = self.world.create_message(
                result.channel_id,
                self.world.bot_user,
                body,
                uploads,
                extra=interaction_message_fields(self.world, result),
            )
        result.followup_ids.append(stored.id)
        if request.query.get("wait", "false").lower() in ("false", "0"):
            return no_content()
        return json_response(self.world.message_payload(stored))

    async def _get_webhook_message(self, request: web.Request) -> web.Response:
        result = self._webhook_interaction(request)
        return json_response(self.world.message_payload(self._webhook_message(request, result)))

    async def _edit_webhook_message(self, request: web.Request) -> web.Response:
        result = self._webhook_interaction(request)
        stored = self._webhook_message(request, result)
        body, uploads = await self._read_body(request)
        self._validate_message(body, uploads, creating=False, interaction_id=result.id)
        self.world.edit_message(stored, body, uploads)
        if stored.id == result.original_message_id:
            result.edit_count += 1
        return json_response(self.world.message_payload(stored))

    async def _delete_webhook_message(self, request: web.Request) -> web.Response:
        result = self._webhook_interaction(request)
        self.world.delete_message(self._webhook_message(request, result))
        return no_content()

    # -- channels, messages, threads ----------------------------------------------------------

    async def _get_channel(self, request: web.Request) -> web.Response:
        return json_response(self._channel(request).payload())

    async def _edit_channel(self, request: web.Request) -> web.Response:
        channel = self._channel(request)
        body, _ = await self._read_body(request)
        return json_response(self.world.update_channel(channel, body).payload())

    async def _get_messages(self, request: web.Request) -> web.Response:
        channel = self._channel(request)
        limit = min(int(request.query.get("limit", "50")), 100)
        history = self.world.channel_history(channel.id)
        if "before" in request.query:
            history = [m for m in history if m.id < int(request.query["before"])]
        if "after" in request.query:
            history = [m for m in history if m.id > int(request.query["after"])][-limit:]
        return json_response([self.world.message_payload(m) for m in history[:limit]])

    async def _create_message(self, request: web.Request) -> web.Response:
        channel = self._channel(request)
        body, uploads = await self._read_body(request)
        self._check_can_post(channel, uploads)
        self._validate_message(body, uploads, creating=True)
        body["flags"] = int(body.get("flags") or 0) & ~EPHEMERAL  # only interactions can
        extra: JSON = {}
        message_type = DEFAULT_MESSAGE
        reference = body.get("message_reference")
        if reference:
            referenced = self.world.find_stored(int(reference.get("message_id") or 0))
            if referenced is None:
                errors = FormErrors()
                errors.add(("message_reference",), "REPLIES_UNKNOWN_MESSAGE", "Unknown message")
                raise ApiError.invalid_form(errors)
            message_type = REPLY
            extra["message_reference"] = {
                "type": 0,
                "message_id": str(referenced.id),
                "channel_id": str(referenced.channel_id),
                "guild_id": None if channel.guild_id is None else str(channel.guild_id),
            }
            extra["referenced_message"] = self.world.message_payload(referenced)
        stored = self.world.create_message(
            channel, self.world.bot_user, body, uploads, message_type=message_type, extra=extra
        )
        return json_response(self.world.message_payload(stored))

    @staticmethod
    def _check_can_post(channel: FakeChannel, uploads: object) -> None:
        """Discord's 50013 when the bot may not post here (or not attach its files)."""
        send = "SEND_MESSAGES_IN_THREADS" if channel.is_thread else "SEND_MESSAGES"
        needed = ["VIEW_CHANNEL", send] + (["ATTACH_FILES"] if uploads else [])
        if any(not channel.bot_permissions & PERMISSION[name] for name in needed):
            raise ApiError(403, 50013, "Missing Permissions", kind="forbidden")

    async def _get_message(self, request: web.Request) -> web.Response:
        channel = self._channel(request)
        return json_response(self.world.message_payload(self._channel_message(request, channel)))

    async def _edit_message(self, request: web.Request) -> web.Response:
        channel = self._channel(request)
        stored = self._channel_message(request, channel)
        body, uploads = await self._read_body(request)
        changes_content = bool({"content", "embeds", "components", "attachments"} & body.keys())
        if int(stored.data["author"]["id"]) != self.world.bot_user.id and (
            changes_content or uploads
        ):
            raise ApiError(
                403, 50005, "Cannot edit a message authored by another user", kind="forbidden"
            )
        self._validate_message(body, uploads, creating=False)
        self.world.edit_message(stored, body, uploads)
        return json_response(self.world.message_payload(stored))

    async def _delete_message(self, request: web.Request) -> web.Response:
        channel = self._channel(request)
        self.world.delete_message(self._channel_message(request, channel))
        return no_content()

    @staticmethod
    def _thread_name(body: JSON) -> str:
        name = body.get("name")
        if not isinstance(name, str) or not 1 <= len(name) <= 100:
            errors = FormErrors()
            errors.add(("name",), "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 100 in length.")
            raise ApiError.invalid_form(errors)
        return name

    async def _create_thread(self, request: web.Request) -> web.Response:
        parent = self._channel(request)
        if parent.type != GUILD_TEXT:
            raise ApiError(400, 50024, "Cannot execute action on this channel type")
        body, _ = await self._read_body(request)
        needed = (
            "CREATE_PRIVATE_THREADS"
            if body.get("type") == PRIVATE_THREAD
            else "CREATE_PUBLIC_THREADS"
        )
        if not parent.bot_permissions & PERMISSION[needed]:
            # Not a violation: the bot cannot know a channel's overwrites before it asks (the
            # fake sends none in GUILD_CREATE), so Discord's refusal is how it learns.
            raise ApiError(403, 50013, "Missing Permissions")
        thread = self.world.add_thread(
            parent,
            self._thread_name(body),
            owner=self.world.bot_user,
            private=body.get("type") == PRIVATE_THREAD,
            auto_archive_duration=int(body.get("auto_archive_duration") or 1440),
        )
        return json_response(thread.payload(), 201)

    async def _thread_from_message(self, request: web.Request) -> web.Response:
        parent = self._channel(request)
        stored = self._channel_message(request, parent)
        if stored.id in self.world.channels:
            raise ApiError(400, 160004, "A thread has already been created for this message")
        body, _ = await self._read_body(request)
        thread = self.world.add_thread(
            parent,
            self._thread_name(body),
            owner=self.world.bot_user,
            thread_id=stored.id,
            auto_archive_duration=int(body.get("auto_archive_duration") or 1440),
        )
        stored.data["flags"] = stored.flags | HAS_THREAD
        return json_response(thread.payload(), 201)

    async def _thread_member(self, request: web.Request) -> web.Response:
        thread = self._channel(request)
        if not thread.is_thread:
            raise ApiError(400, 50024, "Cannot execute action on this channel type")
        raw = request.match_info["user_id"]
        user_id = self.world.bot_user.id if raw == "@me" else _snowflake(request, "user_id")
        if request.method == "PUT":
            thread.thread_member_ids.add(user_id)
        else:
            thread.thread_member_ids.discard(user_id)
        return no_content()

    async def _typing(self, request: web.Request) -> web.Response:
        self._channel(request)
        return no_content()
