import Storage

extension SQLiteSchema {
    /// v17: Auth0 organizations and their members, and the organization of a refresh-token family
    /// (`refresh_tokens.organization_id`, NULL for a login in none and for families from before this version), so
    /// that a rotation keeps the `org_id` claim. A user's memberships go with the user (`deleteUser`).
    static let organizations = Migration(
        version: 17, name: "organizations",
        statements: [
            """
            CREATE TABLE organizations (
                id TEXT PRIMARY KEY NOT NULL,
                name TEXT NOT NULL UNIQUE,
                display_name TEXT,
                created_at REAL NOT NULL
            ) STRICT
            """,
            """
            CREATE TABLE organization_members (
                organization_id TEXT NOT NULL,
                user_id TEXT NOT NULL,
                added_at REAL NOT NULL,
                PRIMARY KEY (organization_id, user_id)
            ) STRICT
            """,
            "CREATE INDEX organization_members_user ON organization_members (user_id)",
            "ALTER TABLE refresh_tokens ADD COLUMN organization_id TEXT",
        ])
}
