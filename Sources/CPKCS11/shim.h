// PKCS#11 (OASIS PKCS #11 v2.40/3.0) through p11-kit's pkcs11.h. The module (e.g. SoftHSM2) is loaded with dlopen;
// these helpers wrap what Swift cannot call or spell directly (CKF_* macros built with shifts, the function list's
// calls with their C structs), so the Swift side only sees plain functions.
#ifndef PASSKEYD_CPKCS11_SHIM_H
#define PASSKEYD_CPKCS11_SHIM_H

#include <dlfcn.h>
#include <p11-kit/pkcs11.h>
#include <stdlib.h>
#include <string.h>

/// Loads `path` with dlopen, gets its function list and initializes it (OS locking). On success `*library` is the
/// dlopen handle and `*functions` the list.
static inline CK_RV passkeyd_pkcs11_load(const char *path, void **library, CK_FUNCTION_LIST_PTR *functions) {
    void *handle = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (handle == NULL) return CKR_GENERAL_ERROR;
    CK_C_GetFunctionList get = (CK_C_GetFunctionList)dlsym(handle, "C_GetFunctionList");
    if (get == NULL) {
        dlclose(handle);
        return CKR_FUNCTION_NOT_SUPPORTED;
    }
    CK_RV rv = get(functions);
    if (rv != CKR_OK) {
        dlclose(handle);
        return rv;
    }
    CK_C_INITIALIZE_ARGS args;
    memset(&args, 0, sizeof args);
    args.flags = CKF_OS_LOCKING_OK;
    rv = (*functions)->C_Initialize(&args);
    if (rv != CKR_OK && rv != CKR_CRYPTOKI_ALREADY_INITIALIZED) {
        dlclose(handle);
        return rv;
    }
    *library = handle;
    return CKR_OK;
}

/// Unloads the module, finalizing it first when `finalize` is non-zero (the caller's last user of the module:
/// C_Finalize ends every session of the process, PKCS #11 3.0 §5.4).
static inline void passkeyd_pkcs11_unload(void *library, CK_FUNCTION_LIST_PTR functions, int finalize) {
    if (finalize) functions->C_Finalize(NULL);
    dlclose(library);
}

/// Opens a read-only session on the token labelled `token_label` (compared with the space-padded 32-byte label)
/// and logs the user in with `pin`.
static inline CK_RV passkeyd_pkcs11_open(CK_FUNCTION_LIST_PTR f, const char *token_label, const char *pin,
                                         CK_SESSION_HANDLE *session) {
    CK_ULONG count = 0;
    CK_RV rv = f->C_GetSlotList(CK_TRUE, NULL, &count);
    if (rv != CKR_OK) return rv;
    if (count == 0) return CKR_TOKEN_NOT_PRESENT;
    CK_SLOT_ID *slots = calloc(count, sizeof(CK_SLOT_ID));
    if (slots == NULL) return CKR_HOST_MEMORY;
    rv = f->C_GetSlotList(CK_TRUE, slots, &count);
    if (rv != CKR_OK) {
        free(slots);
        return rv;
    }
    char wanted[32];
    memset(wanted, ' ', sizeof wanted);
    size_t length = strlen(token_label);
    if (length > sizeof wanted) length = sizeof wanted;
    memcpy(wanted, token_label, length);
    rv = CKR_TOKEN_NOT_PRESENT;
    for (CK_ULONG i = 0; i < count; i++) {
        CK_TOKEN_INFO info;
        if (f->C_GetTokenInfo(slots[i], &info) != CKR_OK) continue;
        if (memcmp(info.label, wanted, sizeof wanted) != 0) continue;
        rv = f->C_OpenSession(slots[i], CKF_SERIAL_SESSION, NULL, NULL, session);
        break;
    }
    free(slots);
    if (rv != CKR_OK) return rv;
    rv = f->C_Login(*session, CKU_USER, (CK_UTF8CHAR_PTR)pin, strlen(pin));
    if (rv == CKR_USER_ALREADY_LOGGED_IN) rv = CKR_OK;
    if (rv != CKR_OK) f->C_CloseSession(*session);
    return rv;
}

/// Finds the one object labelled `label` of the class `kind` names: 0 CKO_PRIVATE_KEY, 1 CKO_PUBLIC_KEY,
/// 2 CKO_SECRET_KEY.
static inline CK_RV passkeyd_pkcs11_find(CK_FUNCTION_LIST_PTR f, CK_SESSION_HANDLE session, int kind,
                                         const char *label, CK_OBJECT_HANDLE *object) {
    CK_OBJECT_CLASS object_class = kind == 2 ? CKO_SECRET_KEY : (kind == 1 ? CKO_PUBLIC_KEY : CKO_PRIVATE_KEY);
    CK_ATTRIBUTE template[2] = {
        {CKA_CLASS, &object_class, sizeof object_class},
        {CKA_LABEL, (void *)label, strlen(label)},
    };
    CK_RV rv = f->C_FindObjectsInit(session, template, 2);
    if (rv != CKR_OK) return rv;
    CK_ULONG found = 0;
    rv = f->C_FindObjects(session, object, 1, &found);
    f->C_FindObjectsFinal(session);
    if (rv != CKR_OK) return rv;
    return found == 1 ? CKR_OK : CKR_KEY_HANDLE_INVALID;
}

/// Reads the CKA_EC_POINT of a public key into `buffer` (`*length` in: its size; out: the bytes written).
static inline CK_RV passkeyd_pkcs11_ec_point(CK_FUNCTION_LIST_PTR f, CK_SESSION_HANDLE session,
                                             CK_OBJECT_HANDLE key, unsigned char *buffer, CK_ULONG *length) {
    CK_ATTRIBUTE attribute = {CKA_EC_POINT, buffer, *length};
    CK_RV rv = f->C_GetAttributeValue(session, key, &attribute, 1);
    *length = attribute.ulValueLen;
    return rv;
}

/// Signs `message` with CKM_EDDSA (PKCS #11 3.0 §2.3.14, pure Ed25519 without parameters) into `signature`
/// (`*length` in: its size; out: the bytes written).
static inline CK_RV passkeyd_pkcs11_sign_eddsa(CK_FUNCTION_LIST_PTR f, CK_SESSION_HANDLE session,
                                               CK_OBJECT_HANDLE key, const unsigned char *message,
                                               CK_ULONG message_length, unsigned char *signature,
                                               CK_ULONG *length) {
    CK_MECHANISM mechanism = {CKM_EDDSA, NULL, 0};
    CK_RV rv = f->C_SignInit(session, &mechanism, key);
    if (rv != CKR_OK) return rv;
    return f->C_Sign(session, (CK_BYTE_PTR)message, message_length, signature, length);
}

/// Encrypts (`encrypt` non-zero) or decrypts `input` with CKM_AES_GCM (PKCS #11 3.0 §2.14.3): a 128-bit tag
/// appended to the ciphertext, `iv` and `aad` as given, into `output` (`*output_length` in: its size; out: the bytes
/// written). Decryption fails (CKR_ENCRYPTED_DATA_INVALID or similar) when the tag does not authenticate.
static inline CK_RV passkeyd_pkcs11_aes_gcm(CK_FUNCTION_LIST_PTR f, CK_SESSION_HANDLE session, CK_OBJECT_HANDLE key,
                                            int encrypt, const unsigned char *iv, CK_ULONG iv_length,
                                            const unsigned char *aad, CK_ULONG aad_length,
                                            const unsigned char *input, CK_ULONG input_length,
                                            unsigned char *output, CK_ULONG *output_length) {
    CK_GCM_PARAMS parameters;
    memset(&parameters, 0, sizeof parameters);
    parameters.pIv = (CK_BYTE_PTR)iv;
    parameters.ulIvLen = iv_length;
    parameters.ulIvBits = iv_length * 8;
    parameters.pAAD = (CK_BYTE_PTR)aad;
    parameters.ulAADLen = aad_length;
    parameters.ulTagBits = 128;
    CK_MECHANISM mechanism = {CKM_AES_GCM, &parameters, sizeof parameters};
    CK_RV rv = encrypt ? f->C_EncryptInit(session, &mechanism, key) : f->C_DecryptInit(session, &mechanism, key);
    if (rv != CKR_OK) return rv;
    if (encrypt) return f->C_Encrypt(session, (CK_BYTE_PTR)input, input_length, output, output_length);
    return f->C_Decrypt(session, (CK_BYTE_PTR)input, input_length, output, output_length);
}

/// Closes the session. No C_Logout: the login state is the application's, shared by all its sessions on the token,
/// so logging out here would log out another signer's session too; closing the application's last session on
/// the token returns it to the public state by itself (PKCS #11 3.0 §5.6, C_CloseSession).
static inline void passkeyd_pkcs11_close(CK_FUNCTION_LIST_PTR f, CK_SESSION_HANDLE session) {
    f->C_CloseSession(session);
}

#endif
