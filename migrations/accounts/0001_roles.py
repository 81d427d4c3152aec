from django.db import migrations

ROLES = ("viewer", "technician", "planner", "operator", "admin")


def create_role_groups(apps, schema_editor):
    Group = apps.get_model("auth", "Group")
    for role in ROLES:
        Group.objects.get_or_create(name=role)


class Migration(migrations.Migration):
    """The five roles are Django groups; they exist on every installation."""

    dependencies = [("auth", "0012_alter_user_first_name_max_length")]
    operations = [migrations.RunPython(create_role_groups, migrations.RunPython.noop)]
