"""Every existing account's address in normal form (games.rules.addresses).

The oldest account keeps a normal form that two accounts share (an earlier matching by
case folding may have let two in); a later one, and an address that is not valid
under the rule, get no form (NULL): no invitation finds them by address. No address is
taken as confirmed: nobody followed a link to it yet.
"""

from django.db import migrations

from games.rules.addresses import normalize
from games.rules.errors import RuleViolation


def fill(apps, schema_editor):
    User = apps.get_model("auth", "User")
    AccountAddress = apps.get_model("games", "AccountAddress")
    taken = set(
        AccountAddress.objects.exclude(normalized=None).values_list("normalized", flat=True)
    )
    have = set(AccountAddress.objects.values_list("user_id", flat=True))
    rows = []
    for user_id, email in User.objects.order_by("pk").values_list("pk", "email").iterator():
        if user_id in have or not email:
            continue
        try:
            normal = normalize(email)
        except RuleViolation:
            normal = None
        if normal in taken:
            normal = None
        if normal is not None:
            taken.add(normal)
        rows.append(AccountAddress(user_id=user_id, email=email, normalized=normal))
    AccountAddress.objects.bulk_create(rows, batch_size=500)


class Migration(migrations.Migration):
    dependencies = [("games", "0027_account_addresses_and_invitations")]

    operations = [migrations.RunPython(fill, migrations.RunPython.noop)]
