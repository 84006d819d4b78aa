class Pins {
  static final String C0 = "aaaaaaaa";
  static final String C1 = C0 + C0;
  static final String C2 = C1 + C1;
  static final String C3 = C2 + C2;
  static final String C4 = C3 + C3;
  static final String C5 = C4 + C4;
  static final String C6 = C5 + C5;
  static final String C7 = C6 + C6;
  static final String C8 = C7 + C7;
  static final String C9 = C8 + C8;
  static final String C10 = C9 + C9;
  static final String C11 = C10 + C10;
  static final String C12 = C11 + C11;
  static final String C13 = C12 + C12;
  static final String C14 = C13 + C13;
  static final String C15 = C14 + C14;
  static final String C16 = C15 + C15;
  static final String C17 = C16 + C16;
  static final String C18 = C17 + C17;
  static final String C19 = C18 + C18;
  static final String C20 = C19 + C19;
  static final String PIN = "sha256/" + "V4zZ9zgOAvYJg7dA+kmk0t+zIYSW0pYWf/cITIu9JvU=";
  CertificatePinner p = new CertificatePinner.Builder()
      .add("api.example.com", "sha256/" + C20, PIN)
      .add("**.example.com", new String[] {PIN, "sha256/kuSfssDcwQgR1zeaAWyuRb6/rAwifh8vmdDJto034ow="})
      .build();
}
