/// `passkeyd orgs list`: every organization (id, name, display name, member count), by name.
package struct OrgsListCommand: OrganizationCommand, Equatable {
    package static let words = ["orgs", "list"]
    package static let summary = "List the organizations (id, name, display name, members) by name."

    package var options: AccountOptions
    package var request: OrganizationAdminRequest

    package init(_ arguments: ParsedArguments) {
        options = AccountOptions(arguments)
        request = .list
    }
}
