extension DependencyKey {
    /// `items` in the order of their keys' descriptions (`key(item).description`), each
    /// description built once and each type named once: sorting by a description rebuilt on
    /// every comparison took seconds for 100,000 keys.
    static func sorted<Item>(_ items: [Item], by key: (Item) -> DependencyKey) -> [Item] {
        var descriptions = Descriptions()
        return items.map { (description: descriptions[key($0)], item: $0) }
            .sorted { $0.description < $1.description }
            .map(\.item)
    }

    /// `items` in the order of their pairs of keys' descriptions, the first key first.
    static func sorted<Item>(
        _ items: [Item],
        by keys: (Item) -> (DependencyKey, DependencyKey)
    ) -> [Item] {
        var descriptions = Descriptions()
        return items.map { item in
            let (first, second) = keys(item)
            return (descriptions: (descriptions[first], descriptions[second]), item: item)
        }
        .sorted { $0.descriptions < $1.descriptions }
        .map(\.item)
    }

    /// Descriptions of keys, as `description` builds them, with each type's name built once;
    /// an existential's without its `any `, so that `any App.Payments` sorts among `App.P…`.
    private struct Descriptions {
        private var typeNames: [ObjectIdentifier: String] = [:]

        subscript(key: DependencyKey) -> String {
            mutating get {
                if let typeName = typeNames[key.typeID] { return key.description(typeName: typeName) }
                var typeName = key.typeName
                if typeName.hasPrefix("any ") { typeName.removeFirst(4) }
                typeNames[key.typeID] = typeName
                return key.description(typeName: typeName)
            }
        }
    }
}
