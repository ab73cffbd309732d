import Storage

extension PostgresSchema {
    /// v17: Auth0 organizations and their members, and the organization of a refresh-token family (as SQLite's
    /// v17). The id and the unique name are named after its `StorageError.Constraint`.
    static let organizations = Migration(
        version: 17, name: "organizations",
        statements: [
            """
            CREATE TABLE organizations (
                id text NOT NULL CONSTRAINT organization_id PRIMARY KEY,
                name text NOT NULL CONSTRAINT organization_name UNIQUE,
                display_name text,
                created_at double precision NOT NULL
            )
            """,
            """
            CREATE TABLE organization_members (
                organization_id text NOT NULL,
                user_id text NOT NULL,
                added_at double precision NOT NULL,
                PRIMARY KEY (organization_id, user_id)
            )
            """,
            "CREATE INDEX organization_members_user ON organization_members (user_id)",
            "ALTER TABLE refresh_tokens ADD COLUMN organization_id text",
        ])
}
