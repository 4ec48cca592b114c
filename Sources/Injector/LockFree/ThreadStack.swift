#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// The bounds of the calling thread's stack, as the platform reports them.
struct ThreadStack {
    /// The lowest address of the stack; stacks grow down towards it.
    let low: UInt
    /// The size of the stack in bytes.
    let size: Int

    /// The calling thread's stack; `nil` where the platform does not tell.
    static func current() -> ThreadStack? {
        #if canImport(Darwin)
            let thread = pthread_self()
            let high = UInt(bitPattern: pthread_get_stackaddr_np(thread))  // the stack's top
            let size = pthread_get_stacksize_np(thread)
            guard size > 0, high > UInt(size) else { return nil }
            return ThreadStack(low: high - UInt(size), size: size)
        #elseif canImport(Glibc) || canImport(Musl)
            guard let getAttributes = threadAttributes else { return nil }
            // Heap-allocated: a `pthread_attr_t` is not to be moved while in use.
            let attributes = UnsafeMutablePointer<pthread_attr_t>.allocate(capacity: 1)
            defer { attributes.deallocate() }
            guard getAttributes(pthread_self(), attributes) == 0 else { return nil }
            defer { pthread_attr_destroy(attributes) }
            var low: UnsafeMutableRawPointer?
            var size = 0
            guard pthread_attr_getstack(attributes, &low, &size) == 0, let low, size > 0 else { return nil }
            return ThreadStack(low: UInt(bitPattern: low), size: size)
        #else
            return nil
        #endif
    }

    #if !canImport(Darwin) && (canImport(Glibc) || canImport(Musl))
        private typealias GetAttributes = @convention(c) (pthread_t, UnsafeMutablePointer<pthread_attr_t>) -> CInt

        /// `pthread_getattr_np`, left out of the Swift module (a GNU extension): looked up by name.
        private static let threadAttributes: GetAttributes? = {
            guard let library = dlopen(nil, RTLD_LAZY), let symbol = dlsym(library, "pthread_getattr_np") else {
                return nil
            }
            return unsafeBitCast(symbol, to: GetAttributes.self)
        }()
    #endif
}
