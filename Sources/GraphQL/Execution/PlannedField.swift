extension Executor {
    /// A field to execute on an object type: its response key, its nodes,
    /// and everything about resolving it that is the same for every object
    /// (worked out once per type and selection, since every object of a list
    /// runs the same plan).
    final class PlannedField {
        let key: String
        let nodes: [Field]
        /// Nil for `__typename` and for fields the type lacks.
        let definition: GraphQLField?
        let parentType: GraphQLNamedType
        let resolution: Resolution
        // The bound resolver, unwrapped once: reading a stored closure costs
        // less than copying it out of an enum's payload for every object.
        let parentResolver: ParentResolver?
        let inputResolver: FieldResolver?
        /// For a resolver bound to a Swift class: the class, and the resolver
        /// that takes its instances (`parentResolver` takes the rest).
        let instanceClass: ObjectIdentifier?
        let instanceResolver: ExecutableSchema.InstanceResolver?
        /// As `instanceResolver`, for one that takes the input too
        /// (`inputResolver` takes the rest).
        let instanceInputResolver: ExecutableSchema.InstanceInputResolver?
        /// The type's wrappers from the outside in, and the named type within
        /// them: completing a value walks these instead of the type's enum.
        let wrappers: [TypeWrapper]
        let namedType: GraphQLNamedType
        /// How a leaf value serialises; nil for object, interface and union types.
        let leafKind: ResultCoercion.LeafKind?
        /// Whether there are arguments to coerce.
        let hasArguments: Bool
        /// For a field read by name (graphql-js's default resolver) whose type
        /// is a built-in scalar, maybe non-null but not a list: how its value
        /// is written when the member already has the scalar's form, straight
        /// from the parent's members.
        let memberLeafKind: ResultCoercion.LeafKind?
        /// The object-independent part of a resolver's info.
        let info: FieldInfo?
        /// The plan of this field's selections on the object type it last
        /// completed (an index into the executor's plans), so that the
        /// objects of a list look their plan up without hashing.
        var subplanType: ObjectIdentifier?
        var subplan = 0
        /// Where the parent's member of this field's name was last found, for
        /// the default resolver over JSON: the objects of a list have their
        /// members in the same order, so it is nearly always there again.
        var memberHint = 0
        /// The enum value result coercion last accepted for this field, so
        /// one of its type's: the objects of a list mostly repeat a few
        /// values, and comparing a short name costs less than looking it up.
        var lastEnumValue: String?
        /// For a field of an introspection type, which one.
        let introspectionField: Introspection.FieldName?
        /// The field's arguments once coerced (see `coerceArguments`).
        var coercedArguments: [String: GraphQLValue]?
        /// For an introspection field, the arguments it reads, once coerced.
        var introspectionArguments: Introspection.Arguments?
        /// How many objects a value of this field is expected to hold (its
        /// page size, for a list or connection), worked out when it first
        /// waits; 0 until then.
        var expectedObjects = 0
        /// With incremental delivery: the deferred fragment each node was met
        /// in (nil outside any), the fragments of the part it executes in,
        /// and its `@stream`, once looked for.
        var deferUsages: [DeferUsage?] = []
        var deferContext: [DeferUsage] = []
        var stream: StreamUsage?
        var streamChecked = false

        /// `"key":`, escaped once for every object that writes it; owned by
        /// the plan, so writing it costs no reference counting.
        let jsonKey: UnsafeBufferPointer<UInt8>

        enum Resolution {
            case typename
            /// A field the object's type does not have (an unvalidated document): left out.
            case omitted
            /// `parentResolver` or `inputResolver`.
            case bound
            case introspection
            /// graphql-js's default resolver: the parent's member of the field's name.
            case byName
        }

        init(
            key: String, nodes: [Field], definition: GraphQLField?, parentType: GraphQLNamedType,
            resolution: Resolution, info: FieldInfo?, resolver: ExecutableSchema.BoundResolver? = nil
        ) {
            self.key = key
            self.nodes = nodes
            self.definition = definition
            self.parentType = parentType
            self.resolution = resolution
            switch resolver {
            case .parent(let resolver):
                (parentResolver, inputResolver, instanceClass, instanceResolver) = (resolver, nil, nil, nil)
                instanceInputResolver = nil
            case .input(let resolver):
                (parentResolver, inputResolver, instanceClass, instanceResolver) = (nil, resolver, nil, nil)
                instanceInputResolver = nil
            case .instance(let objectClass, let resolver, let fallback):
                (parentResolver, inputResolver, instanceClass, instanceResolver) = (fallback, nil, objectClass, resolver)
                instanceInputResolver = nil
            case .instanceWithInput(let objectClass, let resolver, let fallback):
                (parentResolver, inputResolver, instanceClass, instanceResolver) = (nil, fallback, objectClass, nil)
                instanceInputResolver = resolver
            case nil:
                (parentResolver, inputResolver, instanceClass, instanceResolver) = (nil, nil, nil, nil)
                instanceInputResolver = nil
            }
            self.info = info
            name = definition?.name ?? nodes[0].name.value
            introspectionField = resolution == .introspection ? Introspection.FieldName(rawValue: name) : nil
            // `__typename` and omitted fields are never completed: any type does for them.
            let type = definition?.type ?? .nonNull(.named(parentType))
            // The common shapes share their arrays: planning allocates none for them.
            switch type {
            case .named(let named): (wrappers, namedType) = (TypeWrapper.none, named)
            case .nonNull(.named(let named)): (wrappers, namedType) = (TypeWrapper.shapes[0], named)
            case .list(.named(let named)): (wrappers, namedType) = (TypeWrapper.shapes[1], named)
            case .nonNull(.list(.named(let named))): (wrappers, namedType) = (TypeWrapper.shapes[2], named)
            case .nonNull(.list(.nonNull(.named(let named)))): (wrappers, namedType) = (TypeWrapper.shapes[3], named)
            case .list(.nonNull(.named(let named))): (wrappers, namedType) = (TypeWrapper.shapes[4], named)
            default:
                var wrappers: [TypeWrapper] = []
                var inner = type
                while true {
                    switch inner {
                    case .nonNull(let wrapped):
                        wrappers.append(.nonNull)
                        inner = wrapped
                        continue
                    case .list(let wrapped):
                        wrappers.append(.list)
                        inner = wrapped
                        continue
                    case .named(let named):
                        namedType = named
                    }
                    break
                }
                self.wrappers = wrappers
            }
            leafKind = namedType.kind == .scalar || namedType.kind == .enum ? ResultCoercion.LeafKind(namedType) : nil
            hasArguments = !(definition?.arguments.isEmpty ?? true) || !nodes[0].arguments.isEmpty
            switch (resolution, leafKind, wrappers.count) {
            case (.byName, .int?, 0...1), (.byName, .float?, 0...1), (.byName, .string?, 0...1),
                (.byName, .boolean?, 0...1), (.byName, .id?, 0...1):
                memberLeafKind = hasArguments ? nil : leafKind
            default:
                memberLeafKind = nil
            }
            var writer = JSONWriter(capacity: key.utf8.count + 3)
            writer.string(key)
            writer.raw(":")
            let keyBytes = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: writer.count)
            _ = writer.withBytes { keyBytes.initialize(from: $0) }
            jsonKey = UnsafeBufferPointer(keyBytes)
        }

        deinit {
            jsonKey.deallocate()
        }

        /// The field's name, for messages and for reading it by name.
        let name: String

        var isNonNull: Bool { isNonNull(at: 0) }

        /// Whether the type at `depth` wrappers in is non-null.
        @inline(__always)
        func isNonNull(at depth: Int) -> Bool {
            depth >= 0 && depth < wrappers.count && wrappers[depth] == .nonNull
        }

        enum TypeWrapper {
            case nonNull, list

            static let none: [TypeWrapper] = []
            /// `T!`, `[T]`, `[T]!`, `[T!]!` and `[T!]`.
            static let shapes: [[TypeWrapper]] = [
                [.nonNull], [.list], [.nonNull, .list], [.nonNull, .list, .nonNull], [.list, .nonNull],
            ]
        }
    }
}
