package p012b.p013a;

import okhttp3.CertificatePinner;
import okhttp3.OkHttpClient;

/* renamed from: b.a.c */
public final class C0582c {
    public static OkHttpClient m1234a() {
        CertificatePinner.Builder builder = new CertificatePinner.Builder();
        builder.add(C0581a.f1233a, new String[]{C0581a.f1234b, a.b});
        return new OkHttpClient.Builder().certificatePinner(builder.build()).build();
    }
}
