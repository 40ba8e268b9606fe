"""The accounts' e-mails in English, French, Dutch and Russian (plain text and HTML, every value escaped)."""

from __future__ import annotations

import html

MAILS: dict[str, dict[str, dict[str, str]]] = {
    "verify": {
        "en": {"subject": "Confirm your spacetable e-mail address",
               "body": "Hello {name},\n\nopen this link to confirm your e-mail address and finish your account:\n\n{link}\n\n"
                       "The link works once, for {hours} hours. If you did not sign up, ignore this mail."},
        "fr": {"subject": "Confirmez votre adresse e-mail spacetable",
               "body": "Bonjour {name},\n\nouvrez ce lien pour confirmer votre adresse e-mail et terminer votre compte :\n\n"
                       "{link}\n\nLe lien ne sert qu'une fois, pendant {hours} heures. Si vous ne vous êtes pas inscrit, "
                       "ignorez ce message."},
        "nl": {"subject": "Bevestig je e-mailadres bij spacetable",
               "body": "Hallo {name},\n\nopen deze link om je e-mailadres te bevestigen en je account af te ronden:\n\n"
                       "{link}\n\nDe link werkt één keer, {hours} uur lang. Heb je je niet aangemeld, negeer dan deze mail."},
        "ru": {"subject": "Подтвердите адрес электронной почты в spacetable",
               "body": "Здравствуйте, {name}!\n\nОткройте эту ссылку, чтобы подтвердить адрес и завершить создание "
                       "учётной записи:\n\n{link}\n\nСсылка действует один раз в течение {hours} ч. Если вы не "
                       "регистрировались, просто проигнорируйте это письмо."},
    },
    "reset": {
        "en": {"subject": "Reset your spacetable password",
               "body": "Hello {name},\n\nopen this link to choose a new password:\n\n{link}\n\nThe link works once, for "
                       "{hours} hours. If you did not ask for it, ignore this mail: your password stays as it is."},
        "fr": {"subject": "Réinitialisez votre mot de passe spacetable",
               "body": "Bonjour {name},\n\nouvrez ce lien pour choisir un nouveau mot de passe :\n\n{link}\n\nLe lien ne "
                       "sert qu'une fois, pendant {hours} heures. Si vous ne l'avez pas demandé, ignorez ce message : "
                       "votre mot de passe ne change pas."},
        "nl": {"subject": "Stel je spacetable-wachtwoord opnieuw in",
               "body": "Hallo {name},\n\nopen deze link om een nieuw wachtwoord te kiezen:\n\n{link}\n\nDe link werkt "
                       "één keer, {hours} uur lang. Heb je hier niet om gevraagd, negeer dan deze mail: je wachtwoord "
                       "blijft hetzelfde."},
        "ru": {"subject": "Сброс пароля spacetable",
               "body": "Здравствуйте, {name}!\n\nОткройте эту ссылку, чтобы выбрать новый пароль:\n\n{link}\n\n"
                       "Ссылка действует один раз в течение {hours} ч. Если вы этого не запрашивали, проигнорируйте "
                       "письмо: пароль останется прежним."},
    },
    "exists": {
        "en": {"subject": "Someone tried to sign up with your e-mail address",
               "body": "Hello {name},\n\nsomebody tried to make a new spacetable account with this address, which "
                       "already has one. If it was you, sign in instead or reset your password:\n\n{link}"},
        "fr": {"subject": "Quelqu'un a tenté de s'inscrire avec votre adresse e-mail",
               "body": "Bonjour {name},\n\nquelqu'un a tenté de créer un compte spacetable avec cette adresse, qui en a "
                       "déjà un. Si c'était vous, connectez-vous ou réinitialisez votre mot de passe :\n\n{link}"},
        "nl": {"subject": "Iemand probeerde zich aan te melden met je e-mailadres",
               "body": "Hallo {name},\n\niemand probeerde een nieuw spacetable-account te maken met dit adres, dat er "
                       "al een heeft. Was jij het, meld je dan aan of stel je wachtwoord opnieuw in:\n\n{link}"},
        "ru": {"subject": "Кто-то пытался зарегистрироваться с вашим адресом",
               "body": "Здравствуйте, {name}!\n\nКто-то пытался создать учётную запись spacetable с этим адресом, "
                       "но она уже существует. Если это были вы, войдите или сбросьте пароль:\n\n{link}"},
    },
}


def render(kind: str, lang: str, **values: str) -> tuple[str, str, str]:
    """Subject, plain text and HTML of mail ``kind`` in ``lang`` (English if the language is unknown)."""
    entry = MAILS[kind].get(lang) or MAILS[kind]["en"]
    text = entry["body"].format(**values)
    escaped = {k: html.escape(v, quote=True) for k, v in values.items()}
    link = escaped.get("link", "")
    body = html.escape(entry["body"]).replace("{link}", "\x00")
    body = body.format(**{k: v for k, v in escaped.items() if k != "link"}, link="\x00")
    paragraphs = "".join(f"<p>{p.replace(chr(10), '<br>')}</p>" for p in body.split("\n\n"))
    paragraphs = paragraphs.replace("\x00", f'<a href="{link}">{link}</a>')
    page = f'<!doctype html><html lang="{html.escape(lang)}"><body>{paragraphs}</body></html>'
    return entry["subject"], text, page
