from django.db import migrations, models
from django.db.models import Count


def count_the_logs(apps, schema_editor):
    """Every existing match gets the number of moves its log holds."""
    Match = apps.get_model("games", "Match")
    for match in Match.objects.annotate(logged=Count("moves")).filter(logged__gt=0).iterator():
        Match.objects.filter(pk=match.pk).update(plies=match.logged)


class Migration(migrations.Migration):

    dependencies = [
        ("games", "0003_player_resigned"),
    ]

    operations = [
        migrations.AddField(
            model_name="match",
            name="plies",
            field=models.PositiveIntegerField(default=0),
        ),
        migrations.RunPython(count_the_logs, migrations.RunPython.noop),
    ]
