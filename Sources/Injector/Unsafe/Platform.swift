#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

// The platform's threads, in the one file that imports the C library: a mutex and condition,
// thread-specific storage, yielding, and the bounds of a thread's stack. The rest of the
// library calls these, never `pthread_*` itself.

/// A non-recursive mutex and a condition, in memory its owner keeps (a `pthread_mutex_t`
/// must not move while in use): what `Locked` is built on, in the header of the one object it
/// allocates for them and its state. Its owner calls `setUp()` once, first, and `destroy()`
/// once, last.
@usableFromInline
struct PlatformMutex {
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private let condition: UnsafeMutablePointer<pthread_cond_t>

    /// The memory of a mutex and its condition, made zeroed, for `setUp()` to set up in place.
    @usableFromInline
    struct Memory {
        private var mutex = pthread_mutex_t()
        private var condition = pthread_cond_t()
    }

    /// Where the condition is in `Memory`: after the mutex, at the next multiple of its
    /// alignment (a C type's size is a multiple of its own alignment, so its stride is its size).
    private static var conditionOffset: Int {
        let alignment = MemoryLayout<pthread_cond_t>.alignment
        return (MemoryLayout<pthread_mutex_t>.stride + alignment - 1) / alignment * alignment
    }

    /// The mutex and condition in `memory`, which its owner keeps in place.
    @inline(__always)
    init(in memory: UnsafeMutablePointer<Memory>) {
        let memory = UnsafeMutableRawPointer(memory)
        mutex = memory.assumingMemoryBound(to: pthread_mutex_t.self)
        condition = (memory + Self.conditionOffset).assumingMemoryBound(to: pthread_cond_t.self)
    }

    /// Sets up the mutex and condition of fresh memory, before any other use.
    func setUp() {
        pthread_mutex_init(mutex, nil)
        pthread_cond_init(condition, nil)
    }

    /// Destroys the mutex and condition, after every other use. Their memory stays its owner's.
    func destroy() {
        pthread_cond_destroy(condition)
        pthread_mutex_destroy(mutex)
    }

    @inline(__always)
    func lock() {
        pthread_mutex_lock(mutex)
    }

    @inline(__always)
    func unlock() {
        pthread_mutex_unlock(mutex)
    }

    /// Unlocks, sleeps until `broadcast()` (or spuriously), and locks again.
    func wait() {
        pthread_cond_wait(condition, mutex)
    }

    /// Wakes every thread sleeping in `wait()`; called with the mutex locked.
    func broadcast() {
        pthread_cond_broadcast(condition)
    }
}

/// Memory for the library's own blocks (a lock's, a published table's), from the C allocator:
/// `UnsafeMutableRawPointer.allocate(byteCount:alignment:)` takes the runtime's aligned path
/// for every alignment (`posix_memalign` on Linux, about twice `malloc`'s cost), which an opened
/// scope paid for its lock and its table. `malloc` aligns to two words (16 bytes on 64-bit
/// platforms); a larger alignment goes to the runtime, whose aligned memory `free` takes too on
/// the platforms with pthreads (Darwin, glibc, musl), the only ones this file builds for.
enum RawMemory {
    static func allocate(byteCount: Int, alignment: Int) -> UnsafeMutableRawPointer {
        if alignment <= 2 * MemoryLayout<Int>.size, let memory = malloc(byteCount) { return memory }
        return .allocate(byteCount: byteCount, alignment: alignment)
    }

    static func deallocate(_ memory: UnsafeMutableRawPointer) {
        free(memory)
    }
}

/// A slot in which each thread keeps a pointer of its own; when a thread that set one ends,
/// the pointer is handed to the destructor.
struct ThreadKey: @unchecked Sendable {
    // `@unchecked Sendable`: an immutable key, which the platform lets any thread use.
    private let key: pthread_key_t

    /// A new key; `destructor` (a function that captures nothing) gets each ending thread's
    /// pointer, if it set one.
    init(destructor: @escaping @convention(c) (UnsafeMutableRawPointer?) -> Void) {
        var key = pthread_key_t()
        #if canImport(Darwin)
            // Darwin declares the destructor's pointer non-optional; the two function types
            // have one representation, and the platform never passes it a null pointer.
            pthread_key_create(
                &key, unsafeBitCast(destructor, to: (@convention(c) (UnsafeMutableRawPointer) -> Void).self))
        #else
            pthread_key_create(&key, destructor)
        #endif
        self.key = key
    }

    /// This thread's pointer; `nil` until it sets one.
    @inline(__always)
    var value: UnsafeMutableRawPointer? {
        pthread_getspecific(key)
    }

    /// Sets this thread's pointer.
    func set(_ value: UnsafeMutableRawPointer?) {
        pthread_setspecific(key, value)
    }
}

/// An object each thread has its own of, made on the thread's first ask and released when the
/// thread ends: `ResolutionContext`'s home.
final class ThreadLocalObject<Object: AnyObject>: Sendable {
    private let key = ThreadKey(destructor: releaseThreadObject)
    private let make: @Sendable () -> Object

    init(_ make: @escaping @Sendable () -> Object) {
        self.make = make
    }

    /// This thread's object, unretained (the thread holds it).
    @inline(__always)
    var current: Object {
        if let pointer = key.value { return Unmanaged<Object>.fromOpaque(pointer).takeUnretainedValue() }
        return makeCurrent()
    }

    /// `body` applied to this thread's object, which is not retained for it (the thread holds it).
    @inline(__always)
    func withCurrent<Result>(_ body: (Object) -> Result) -> Result {
        guard let pointer = key.value else { return body(makeCurrent()) }
        return Unmanaged<Object>.fromOpaque(pointer)._withUnsafeGuaranteedRef(body)
    }

    @inline(never)
    private func makeCurrent() -> Object {
        let object = make()
        key.set(Unmanaged.passRetained(object).toOpaque())
        return object
    }
}

private func releaseThreadObject(_ pointer: UnsafeMutableRawPointer?) {
    guard let pointer else { return }
    Unmanaged<AnyObject>.fromOpaque(pointer).release()
}

/// Lets another thread run: a writer waiting for readers to leave a table.
func yieldThread() {
    sched_yield()
}

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
