// The certificate format's errors are the encodings' own class (common/encoding/errors.ts), so a caller such
// as cert-audit tells "this certificate is unreadable" (skip the host) from a programming error whichever
// layer, base64, UTF-8 or protobuf, found the fault.
export { FormatError as CertificateFormatError } from "../../../common/encoding/errors";
