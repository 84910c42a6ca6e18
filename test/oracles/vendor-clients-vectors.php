<?php
/**
 * Writes test/vectors/vendor-clients-control.json: the `control` of the operations the vendor's
 * clients call (gateway-notes.md, "What the vendor's live clients also rely on"), computed in PHP,
 * independently of src/core. transfer-by-ref and sync/account-verification are signed by the
 * vendor's own v2 PHP SDK (its TransferByRefQuery and SyncAccountVerificationQuery, unmodified,
 * argv[1] the SDK's directory); make-rebill-sale / -preauth by the SDK's MakeRebillQuery (the notes:
 * "control as make-rebill"); bank-wire-transfer by PHP's sha1 over the notes' formula.
 * Run: php test/oracles/vendor-clients-vectors.php ../shared/vendor-clients/php-library-payneteasy-api > test/vectors/vendor-clients-control.json
 */
error_reporting(E_ALL & ~E_DEPRECATED);
$sdk = rtrim($argv[1], '/') . '/source/';
spl_autoload_register(function ($class) use ($sdk) {
    $file = $sdk . str_replace('\\', '/', $class) . '.php';
    if (is_file($file)) require $file;
});

use PaynetEasy\PaynetEasyApi\PaymentData\PaymentTransaction;
use PaynetEasy\PaynetEasyApi\PaymentData\Payment;
use PaynetEasy\PaynetEasyApi\PaymentData\QueryConfig;
use PaynetEasy\PaynetEasyApi\PaymentData\Customer;
use PaynetEasy\PaynetEasyApi\PaymentData\BillingAddress;
use PaynetEasy\PaynetEasyApi\PaymentData\CreditCard;
use PaynetEasy\PaynetEasyApi\PaymentData\RecurrentCard;
use PaynetEasy\PaynetEasyApi\Query\QueryFactory;

$login = 'demo-merchant';
$key = 'B17F59B4-A7DC-41B4-8FF9-37D986B43D20';
$endpoint = '1111';

function sdkCase($name, $query, $payment, $login, $key, $endpoint) {
    $config = new QueryConfig(array(
        'end_point' => $endpoint, 'login' => $login, 'signing_key' => $key,
        'redirect_url' => 'https://merchant.example.com/return',
        'gateway_mode' => QueryConfig::GATEWAY_MODE_SANDBOX,
        'gateway_url_sandbox' => 'https://sandbox.example.com/paynet/api/v2',
    ));
    $t = new PaymentTransaction(array('payment' => $payment, 'query_config' => $config));
    $factory = new QueryFactory();
    $request = $factory->getQuery($query)->createRequest($t);
    $fields = $request->getRequestFields();
    $params = array();
    foreach ($fields as $k => $v) if ($k !== 'control') $params[] = array('name' => $k, 'value' => (string) $v);
    return array('name' => $name, 'by' => 'the vendor\'s v2 PHP SDK (' . get_class($factory->getQuery($query)) . ')',
        'operation' => 'v2/' . ($query === 'sync-account-verification' ? 'sync/account-verification' : $query),
        'login' => $login, 'controlKey' => $key, 'endpoint' => $endpoint,
        'params' => $params, 'signature' => $fields['control']);
}

function customer() {
    return new Customer(array('email' => 'john.smith@gmail.com', 'ip_address' => '203.0.113.7',
        'first_name' => 'John', 'last_name' => 'Smith'));
}

$cases = array();

$p = new Payment(array('client_id' => '902B4FF5', 'description' => 'Transfer', 'amount' => '10.42', 'currency' => 'USD'));
$p->setCustomer(customer());
$p->setRecurrentCardFrom(new RecurrentCard(array('paynet_id' => '1000001', 'cvv2' => '123')));
$p->setRecurrentCardTo(new RecurrentCard(array('paynet_id' => '1000002')));
$cases[] = sdkCase('v2/transfer-by-ref, both references', 'transfer-by-ref', $p, $login, $key, $endpoint);

$p = new Payment(array('client_id' => 'AV-0001', 'description' => 'Card check'));
$p->setCustomer(customer());
$p->setBillingAddress(new BillingAddress(array('country' => 'US', 'city' => 'Seattle',
    'first_line' => '100 Main Street', 'zip_code' => '98102', 'phone' => '12063582043')));
$p->setCreditCard(new CreditCard(array('card_printed_name' => 'JOHN SMITH',
    'credit_card_number' => '4444444444444448', 'expire_month' => '12', 'expire_year' => '30', 'cvv2' => '123')));
$cases[] = sdkCase('v2/sync/account-verification', 'sync-account-verification', $p, $login, $key, $endpoint);

foreach (array('v2/make-rebill-sale', 'v2/make-rebill-preauth') as $op) {
    $p = new Payment(array('client_id' => 'RB-2026-07', 'description' => 'Renewal', 'amount' => '9.99', 'currency' => 'EUR'));
    $p->setCustomer(customer());
    $p->setRecurrentCardFrom(new RecurrentCard(array('paynet_id' => '1000001')));
    $c = sdkCase($op . ' (signed as make-rebill)', 'make-rebill', $p, $login, $key, $endpoint);
    $c['by'] = "the vendor's v2 PHP SDK (MakeRebillQuery: the notes sign " . $op . ' as make-rebill)';
    $c['operation'] = $op;
    $c['params'][] = array('name' => 'recurrent_scenario', 'value' => 'REGULAR');
    $c['params'][] = array('name' => 'recurrent_initiator', 'value' => 'MERCHANT');
    $cases[] = $c;
}

// bank-wire-transfer: the notes' formula, amounts in minor units by string arithmetic (no float).
$minor = function ($a) { list($i, $f) = array_pad(explode('.', $a), 2, ''); return ltrim($i . str_pad($f, 2, '0'), '0') ?: '0'; };
$bw = array('client_orderid' => 'BW-77', 'payer-fullname' => 'John Smith', 'recipient-name' => 'Example Supplies Ltd',
    'recipient-account-number' => 'GB29NWBK60161331926819', 'recipient-bank-bic' => 'NWBKGB2L',
    'amount' => '120.50', 'vat-amount' => '20.08', 'currency' => 'EUR');
$joined = $endpoint . $bw['client_orderid'] . $bw['payer-fullname'] . $bw['recipient-name']
    . $bw['recipient-account-number'] . $bw['recipient-bank-bic'] . $minor($bw['amount']) . $minor($bw['vat-amount']) . $bw['currency'];
$params = array();
foreach ($bw as $k => $v) $params[] = array('name' => $k, 'value' => $v);
$cases[] = array('name' => 'v2/bank-wire-transfer', 'by' => "PHP's sha1 over gateway-notes.md's formula",
    'operation' => 'v2/bank-wire-transfer', 'login' => $login, 'controlKey' => $key, 'endpoint' => $endpoint,
    'params' => $params, 'joined' => $joined, 'signature' => sha1($joined . $key));

echo json_encode(array(
    'source' => "gateway-notes.md, \"What the vendor's live clients also rely on\", and the vendor's v2 PHP SDK (TransferByRefQuery.php, SyncAccountVerificationQuery.php, MakeRebillQuery.php); computed by test/oracles/vendor-clients-vectors.php.",
    'cases' => $cases,
), JSON_PRETTY_PRINT | JSON_UNESCAPED_SLASHES | JSON_UNESCAPED_UNICODE), "\n";
