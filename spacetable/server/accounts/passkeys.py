"""Passkeys (WebAuthn, through the ``webauthn`` library): sign up with a new passkey, add one to an account, sign
in with one. Each ceremony's challenge is stored in the database (any process finishes it), lives five minutes
and is spent once."""

from __future__ import annotations

import json
import secrets
import time
from typing import TYPE_CHECKING, Any

from ..errors import ServiceError
from .names import check_display_name, check_lang, check_username
from .service import AccountService, b64url, b64url_decode

if TYPE_CHECKING:
    from ..storage import Tx

CHALLENGE_SECONDS = 300
MAX_CREDENTIAL_JSON = 16 * 1024


def _webauthn() -> Any:
    """The ``webauthn`` library, imported on first use (it pulls in much of ``cryptography``: a server that never
    sees a passkey starts faster)."""
    import webauthn
    from webauthn.helpers import exceptions, structs

    return webauthn, exceptions, structs


class Passkeys:
    def __init__(self, accounts: AccountService) -> None:
        self.accounts = accounts
        self.storage = accounts.storage

    async def _store_challenge(self, challenge: bytes, purpose: str, data: dict[str, Any]) -> str:
        cid = secrets.token_urlsafe(24)
        now = time.time()

        async def job(tx: Tx) -> None:
            await tx.execute("DELETE FROM webauthn_challenges WHERE expires_at < :t", {"t": now})
            await tx.execute("INSERT INTO webauthn_challenges (id, challenge, purpose, data, expires_at) "
                             "VALUES (:i, :c, :p, :d, :e)",
                             {"i": cid, "c": b64url(challenge), "p": purpose, "d": json.dumps(data),
                              "e": now + CHALLENGE_SECONDS})

        await self.storage.write(job)
        return cid

    async def _spend_challenge(self, tx: Tx, cid: Any, purpose: str) -> tuple[bytes, dict[str, Any]]:
        if not isinstance(cid, str) or len(cid) > 64:
            raise ServiceError(400, "bad_challenge", "this passkey request has expired; try again")
        rows = await tx.fetch("SELECT * FROM webauthn_challenges WHERE id = :i AND purpose = :p", {"i": cid, "p": purpose})
        if not rows or rows[0]["expires_at"] < time.time():
            raise ServiceError(400, "bad_challenge", "this passkey request has expired; try again")
        if await tx.execute("DELETE FROM webauthn_challenges WHERE id = :i", {"i": cid}) != 1:
            raise ServiceError(400, "bad_challenge", "this passkey request has expired; try again")
        return b64url_decode(rows[0]["challenge"]), json.loads(rows[0]["data"])

    @staticmethod
    def _credential(credential: Any) -> dict[str, Any]:
        if not isinstance(credential, dict) or len(json.dumps(credential)) > MAX_CREDENTIAL_JSON \
                or not isinstance(credential.get("id"), str):
            raise ServiceError(422, "bad_credential", "a passkey credential is required")
        return credential

    # ------------------------------------------------------------------ register
    async def register_begin(self, base: str, account: dict[str, Any] | None, username: Any = None,
                             display_name: Any = None, lang: Any = None) -> dict[str, Any]:
        """Options for ``navigator.credentials.create``: for a new account (``username`` ...) or, signed in, for
        one more passkey of ``account``."""
        webauthn, _, structs = _webauthn()
        rp_id, _ = self.accounts.relying_party(base)
        exclude: list[Any] = []
        if account is None:
            name, key = check_username(username)
            display = check_display_name(display_name, name)
            language = check_lang(lang)
            if await self.accounts.one("SELECT 1 AS x FROM accounts WHERE username_key = :k", k=key):
                raise ServiceError(409, "username_taken", "this username is taken")
            account_id = secrets.token_hex(12)
            data = {"new": True, "account_id": account_id, "username": name, "key": key, "display": display,
                    "lang": language}
        else:
            account_id, name, display = account["id"], account["username"], account["display_name"]
            data = {"new": False, "account_id": account_id}
            for r in await self.accounts.read("SELECT id FROM passkeys WHERE account_id = :a", a=account_id):
                exclude.append(structs.PublicKeyCredentialDescriptor(id=b64url_decode(r["id"])))
        options = webauthn.generate_registration_options(
            rp_id=rp_id, rp_name=self.accounts.settings.rp_name, user_id=account_id.encode(), user_name=name,
            user_display_name=display, exclude_credentials=exclude,
            authenticator_selection=structs.AuthenticatorSelectionCriteria(
                resident_key=structs.ResidentKeyRequirement.REQUIRED,
                user_verification=structs.UserVerificationRequirement.PREFERRED),
        )
        cid = await self._store_challenge(options.challenge, "register", data)
        return {"challenge_id": cid, "options": json.loads(webauthn.options_to_json(options))}

    async def register_finish(self, base: str, challenge_id: Any, credential: Any,
                              account: dict[str, Any] | None) -> str:
        """Verify the new passkey and store it (with its new account); the account id."""
        webauthn, exceptions, _ = _webauthn()
        rp_id, origin = self.accounts.relying_party(base)
        credential = self._credential(credential)
        now = time.time()

        async def spend(tx: Tx) -> tuple[bytes, dict[str, Any]]:
            return await self._spend_challenge(tx, challenge_id, "register")

        challenge, data = await self.storage.write(spend)
        if not data["new"] and (account is None or account["id"] != data["account_id"]):
            raise ServiceError(403, "forbidden", "this passkey request belongs to another session")
        try:
            verified = webauthn.verify_registration_response(credential=credential, expected_challenge=challenge,
                                                    expected_rp_id=rp_id, expected_origin=origin)
        except (exceptions.InvalidRegistrationResponse, ValueError, KeyError, TypeError):
            raise ServiceError(422, "bad_credential", "the passkey could not be verified") from None
        pk = {"i": b64url(verified.credential_id), "a": data["account_id"],
              "k": b64url(verified.credential_public_key), "n": verified.sign_count, "t": now}

        async def job(tx: Tx) -> None:
            if data["new"]:
                row = self.accounts.new_row(data["username"], data["key"], data["display"], data["lang"])
                row["id"] = data["account_id"]
                await self.accounts._insert_account(tx, row)
            if await tx.fetch("SELECT 1 AS x FROM passkeys WHERE id = :i", {"i": pk["i"]}):
                raise ServiceError(409, "passkey_known", "this passkey is registered already")
            await tx.execute("INSERT INTO passkeys (id, account_id, public_key, sign_count, created_at, used_at) "
                             "VALUES (:i, :a, :k, :n, :t, NULL)", pk)

        await self.storage.write(job)
        return str(data["account_id"])

    # -------------------------------------------------------------------- sign in
    async def signin_begin(self, base: str) -> dict[str, Any]:
        webauthn, _, structs = _webauthn()
        rp_id, _ = self.accounts.relying_party(base)
        options = webauthn.generate_authentication_options(
            rp_id=rp_id, user_verification=structs.UserVerificationRequirement.PREFERRED)
        cid = await self._store_challenge(options.challenge, "signin", {})
        return {"challenge_id": cid, "options": json.loads(webauthn.options_to_json(options))}

    async def signin_finish(self, base: str, challenge_id: Any, credential: Any) -> str:
        webauthn, exceptions, _ = _webauthn()
        rp_id, origin = self.accounts.relying_party(base)
        credential = self._credential(credential)

        async def spend(tx: Tx) -> tuple[bytes, dict[str, Any]]:
            return await self._spend_challenge(tx, challenge_id, "signin")

        challenge, _ = await self.storage.write(spend)
        row = await self.accounts.one("SELECT * FROM passkeys WHERE id = :i", i=credential["id"])
        if row is None:
            raise ServiceError(401, "unknown_passkey", "this passkey is not known here")
        try:
            verified = webauthn.verify_authentication_response(
                credential=credential, expected_challenge=challenge, expected_rp_id=rp_id, expected_origin=origin,
                credential_public_key=b64url_decode(row["public_key"]), credential_current_sign_count=row["sign_count"])
        except (exceptions.InvalidAuthenticationResponse, ValueError, KeyError, TypeError):
            raise ServiceError(401, "bad_credential", "the passkey could not be verified") from None

        async def job(tx: Tx) -> None:
            await tx.execute("UPDATE passkeys SET sign_count = :n, used_at = :t WHERE id = :i",
                             {"n": verified.new_sign_count, "t": time.time(), "i": row["id"]})

        await self.storage.write(job)
        return str(row["account_id"])
