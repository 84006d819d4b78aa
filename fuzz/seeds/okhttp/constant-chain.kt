object Pins {
    const val C0 = "aaaaaaaa"
    const val C1 = C0 + C0
    const val C2 = C1 + C1
    const val C3 = C2 + C2
    const val C4 = C3 + C3
    const val C5 = C4 + C4
    const val C6 = C5 + C5
    const val C7 = C6 + C6
    const val C8 = C7 + C7
    const val C9 = C8 + C8
    const val C10 = C9 + C9
    const val C11 = C10 + C10
    const val C12 = C11 + C11
    const val C13 = C12 + C12
    const val C14 = C13 + C13
    const val C15 = C14 + C14
    const val C16 = C15 + C15
    const val C17 = C16 + C16
    const val C18 = C17 + C17
    const val C19 = C18 + C18
    const val C20 = C19 + C19
}
private val PIN: String = "sha256/" + "V4zZ9zgOAvYJg7dA+kmk0t+zIYSW0pYWf/cITIu9JvU="
val PINS = arrayOf(PIN, "sha256/kuSfssDcwQgR1zeaAWyuRb6/rAwifh8vmdDJto034ow=")
val pinner = CertificatePinner.Builder()
    .add("api.example.com", "sha256/" + Pins.C20, *PINS)
    .add("**.example.com", PIN)
    .build()
