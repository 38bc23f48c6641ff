"""Load the bundled collections (Microban, Microban II by David W. Skinner)."""

from django.db import migrations


def load(apps, schema_editor):  # type: ignore[no-untyped-def]
    from games.engines.sokoban import load_levels
    from games.sokoban.collections import BUNDLED

    Level = apps.get_model("sokoban", "Level")
    for collection, path in BUNDLED.items():
        rows = []
        for number, level in enumerate(load_levels(path), start=1):
            rows.append(
                Level(
                    collection=collection,
                    number=number,
                    # Microban's own titles are just the number.
                    title=f"{collection} {number}",
                    xsb=level.to_xsb(title=False),
                    width=level.width,
                    height=level.height,
                    boxes=len(level.boxes),
                    verified="solvable",
                )
            )
        Level.objects.bulk_create(rows, ignore_conflicts=True)


def unload(apps, schema_editor):  # type: ignore[no-untyped-def]
    from games.sokoban.collections import BUNDLED

    apps.get_model("sokoban", "Level").objects.filter(collection__in=list(BUNDLED)).delete()


class Migration(migrations.Migration):
    dependencies = [("sokoban", "0001_initial")]
    operations = [migrations.RunPython(load, unload)]
