import Service

/// `passkeyd orgs create NAME [--display-name TEXT]`: a new organization, its id printed.
package struct OrgsCreateCommand: OrganizationCommand, Equatable {
    /// The organization's name.
    static let name = Operand("NAME")
    /// `--display-name TEXT`: a name for people.
    static let displayName = Option<String>(
        "--display-name", "TEXT", requirement: "must be 1 to 255 characters, no control character"
    ) { OrganizationNaming.isValidDisplayName($0) ? $0 : nil }

    package static let words = ["orgs", "create"]
    package static let operands = [name]
    package static let flags: [any Flag] = [displayName] + AccountOptions.flags
    package static let summary = """
        Create an organization (Auth0's): NAME is 1 to 50 lower-case letters, digits, - and _; prints its id
        (org_ and 16 letters and digits). Exit 1 when the name is taken.
        """

    package var options: AccountOptions
    package var request: OrganizationAdminRequest

    package init(_ arguments: ParsedArguments) throws(UsageError) {
        options = AccountOptions(arguments)
        let name = arguments.word(Self.name)
        // Auth0's rule for an organization's name ("Organizations > Create").
        guard OrganizationNaming.isValidName(name) else {
            throw UsageError("NAME must be 1 to 50 lower-case letters, digits, - and _", usage: [Self.synopsis])
        }
        request = .create(name: name, displayName: arguments[Self.displayName])
    }
}
