from django.db import migrations


class Migration(migrations.Migration):
    """A version of each fabric's link ends, for ingest's cached index of ends by switch and port
    name (services/endpoints.py). Reading one row replaces a fingerprint over every link of the
    fabric (0.05 s of CPU per batch at 100K links, as much as the rest of a 10,000-sample batch).

    Triggers give the fabric a fresh number from a sequence whenever a link is inserted or deleted,
    a link's switches or ports change, or a switch is renamed; health and state updates of links do
    not touch it. Numbers never repeat (a sequence), so a fabric id reused after a database flush
    cannot meet a cached index's number. A switch added without links is not counted: the cached
    index then only sends a sample of it to the full, set-based path."""

    dependencies = [("telemetry", "0006_samples_go_with_links_by_trigger")]

    operations = [
        migrations.RunSQL(
            sql="""
            CREATE SEQUENCE telemetry_ends_version_seq;
            CREATE TABLE telemetry_ends_version (fabric_id bigint PRIMARY KEY, version bigint NOT NULL);

            CREATE FUNCTION telemetry_bump_ends_version(fabric bigint) RETURNS void LANGUAGE sql AS $$
                INSERT INTO telemetry_ends_version (fabric_id, version)
                VALUES (fabric, nextval('telemetry_ends_version_seq'))
                ON CONFLICT (fabric_id) DO UPDATE SET version = EXCLUDED.version;
            $$;

            CREATE FUNCTION telemetry_links_inserted_or_deleted() RETURNS trigger LANGUAGE plpgsql AS $$
            BEGIN
                PERFORM telemetry_bump_ends_version(fabric_id) FROM (SELECT DISTINCT fabric_id FROM changed_links) f;
                RETURN NULL;
            END $$;
            CREATE TRIGGER telemetry_ends_version_on_insert AFTER INSERT ON fabric_link
                REFERENCING NEW TABLE AS changed_links
                FOR EACH STATEMENT EXECUTE FUNCTION telemetry_links_inserted_or_deleted();
            CREATE TRIGGER telemetry_ends_version_on_delete AFTER DELETE ON fabric_link
                REFERENCING OLD TABLE AS changed_links
                FOR EACH STATEMENT EXECUTE FUNCTION telemetry_links_inserted_or_deleted();

            CREATE FUNCTION telemetry_link_ends_changed() RETURNS trigger LANGUAGE plpgsql AS $$
            BEGIN
                PERFORM telemetry_bump_ends_version(OLD.fabric_id);
                IF NEW.fabric_id IS DISTINCT FROM OLD.fabric_id THEN
                    PERFORM telemetry_bump_ends_version(NEW.fabric_id);
                END IF;
                RETURN NULL;
            END $$;
            CREATE TRIGGER telemetry_ends_version_on_link_update AFTER UPDATE ON fabric_link FOR EACH ROW
                WHEN ((OLD.fabric_id, OLD.a_switch_id, OLD.a_port, OLD.z_switch_id, OLD.z_port)
                      IS DISTINCT FROM (NEW.fabric_id, NEW.a_switch_id, NEW.a_port, NEW.z_switch_id, NEW.z_port))
                EXECUTE FUNCTION telemetry_link_ends_changed();

            CREATE FUNCTION telemetry_switch_renamed() RETURNS trigger LANGUAGE plpgsql AS $$
            BEGIN
                PERFORM telemetry_bump_ends_version(OLD.fabric_id);
                PERFORM telemetry_bump_ends_version(NEW.fabric_id);
                RETURN NULL;
            END $$;
            CREATE TRIGGER telemetry_ends_version_on_switch_rename AFTER UPDATE ON fabric_switch FOR EACH ROW
                WHEN ((OLD.fabric_id, OLD.name) IS DISTINCT FROM (NEW.fabric_id, NEW.name))
                EXECUTE FUNCTION telemetry_switch_renamed();
            """,
            reverse_sql="""
            DROP TRIGGER telemetry_ends_version_on_switch_rename ON fabric_switch;
            DROP TRIGGER telemetry_ends_version_on_link_update ON fabric_link;
            DROP TRIGGER telemetry_ends_version_on_delete ON fabric_link;
            DROP TRIGGER telemetry_ends_version_on_insert ON fabric_link;
            DROP FUNCTION telemetry_switch_renamed(), telemetry_link_ends_changed(),
                          telemetry_links_inserted_or_deleted(), telemetry_bump_ends_version(bigint);
            DROP TABLE telemetry_ends_version;
            DROP SEQUENCE telemetry_ends_version_seq;
            """,
        ),
    ]
