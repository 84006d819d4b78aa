package com.example.net

import okhttp3.CertificatePinner

object Pinning {
    val pinner = CertificatePinner.Builder()
        .add("**.example.co.uk",
            "sha256/V4zZ9zgOAvYJg7dA+kmk0t+zIYSW0pYWf/cITIu9JvU=",
            "sha256/kuSfssDcwQgR1zeaAWyuRb6/rAwifh8vmdDJto034ow=")
        .build()
}
